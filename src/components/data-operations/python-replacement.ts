/**
 * Python `re.sub` replacement templates: `\1`, `\g<1>`, `\g<name>` name groups, `\n`-style escapes are
 * characters, and nothing else is special (a `$` is just a dollar sign, unlike JavaScript's templates). Parsed once
 * into literal text and group references, checked against the pattern's groups, then expanded per match.
 */

/** Literal text, or the number or name of a group whose text goes there (an unmatched group gives ""). */
export type ReplacementPart = string | { group: number | string };

export class ReplacementSyntaxError extends Error {
  override name = 'ReplacementSyntaxError';
}

const CHAR_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', a: '\x07', b: '\b', '\\': '\\' };

export function parseReplacement(template: string, groups: { count: number; names: readonly string[] }): ReplacementPart[] {
  const parts: ReplacementPart[] = [];
  let literal = '';
  const pushGroup = (group: number | string) => {
    if (typeof group === 'number' && group > groups.count) throw new ReplacementSyntaxError(`invalid group reference ${group}`);
    if (typeof group === 'string' && !groups.names.includes(group)) throw new ReplacementSyntaxError(`unknown group name '${group}'`);
    if (literal) parts.push(literal);
    literal = '';
    parts.push({ group });
  };
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '\\') {
      literal += c;
      continue;
    }
    const d = template[i + 1];
    if (d === undefined) throw new ReplacementSyntaxError('bad escape (end of pattern)');
    if (d === 'g') {
      const named = /^<([^>]*)>/.exec(template.slice(i + 2));
      if (!named || named[1] === '') throw new ReplacementSyntaxError('missing group name in \\g<...>');
      pushGroup(/^\d+$/.test(named[1]) ? Number(named[1]) : named[1]);
      i += 1 + named[0].length;
    } else if (/\d/.test(d)) {
      const octal = /^(?:0[0-7]{0,2}|[0-7]{3})/.exec(template.slice(i + 1));
      if (octal && (d === '0' || octal[0].length === 3)) {
        literal += String.fromCodePoint(parseInt(octal[0], 8));
        i += octal[0].length;
      } else {
        const digits = /^\d{1,2}/.exec(template.slice(i + 1))![0];
        pushGroup(Number(digits));
        i += digits.length;
      }
    } else if (d in CHAR_ESCAPES) {
      literal += CHAR_ESCAPES[d];
      i += 1;
    } else if (/[A-Za-z]/.test(d)) {
      throw new ReplacementSyntaxError(`bad escape \\${d}`);
    } else {
      // Python keeps an unknown escape of punctuation as written, backslash included.
      literal += c + d;
      i += 1;
    }
  }
  if (literal || parts.length === 0) parts.push(literal);
  return parts;
}

/** The replacement for one match: `groups[0]` is the whole match, `named` the named groups. */
export function expandReplacement(parts: readonly ReplacementPart[], groups: ArrayLike<string | undefined>, named: Record<string, string | undefined> | undefined): string {
  if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else out += (typeof part.group === 'number' ? groups[part.group] : named?.[part.group]) ?? '';
  }
  return out;
}
