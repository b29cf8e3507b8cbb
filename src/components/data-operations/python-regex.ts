/**
 * Python `re` patterns as JavaScript regexes. Langflow users write Python patterns, so the syntax Python has and
 * JavaScript lacks is rewritten: `(?P<name>…)`, `(?P=name)`, `(?#…)`, leading inline flags `(?imsx)`, `\A`, `\Z`,
 * `\U…`, a literal `{`, `[]…]`; and the classes Python makes Unicode-aware (`\w`, `\d`, `\b`, `.`, `^`, `$`)
 * get Python's meaning instead of JavaScript's ASCII or line-terminator rules. What JavaScript cannot express
 * (possessive quantifiers, atomic groups, scoped flags, `\N{…}`) is an error naming the construct.
 */

export interface JsRegex {
  source: string;
  flags: string;
}

const WORD = '[\\p{L}\\p{N}_]';
const NOT_WORD = '[^\\p{L}\\p{N}_]';
const START = '(?<![\\s\\S])';
const END = '(?![\\s\\S])';
/** Identity escapes JavaScript allows in a unicode-mode regex (others must be written as the bare character). */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const SIMPLE_ESCAPES = new Set('nrtfv');

export class PatternSyntaxError extends Error {
  override name = 'PatternSyntaxError';
}

export function toJsRegex(pattern: string): JsRegex {
  let i = 0;
  const flags = new Set<string>();
  for (let m = /^\(\?([aiLmsux]+)\)/.exec(pattern); m; m = /^\(\?([aiLmsux]+)\)/.exec(pattern.slice(i))) {
    for (const f of m[1]) flags.add(f);
    i += m[0].length;
  }
  if (flags.has('L')) throw new PatternSyntaxError('the L (locale) flag is not supported');
  const ascii = flags.has('a');
  const multiline = flags.has('m');
  const verbose = flags.has('x');
  let out = '';
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      const [text, used] = escape(pattern, i, false, ascii);
      out += text;
      i += used;
      continue;
    }
    if (verbose && /\s/.test(c)) {
      i += 1;
      continue;
    }
    if (verbose && c === '#') {
      const newline = pattern.indexOf('\n', i);
      i = newline < 0 ? pattern.length : newline + 1;
      continue;
    }
    if (c === '[') {
      const [text, used] = characterClass(pattern, i, ascii);
      out += text;
      i += used;
      continue;
    }
    if (c === '(') {
      const [text, used] = group(pattern, i);
      out += text;
      i += used;
      continue;
    }
    const quantifier = c === '{' ? /^\{(\d*)(?:(,)(\d*))?\}/.exec(pattern.slice(i)) : null;
    if (quantifier && (quantifier[1] !== '' || quantifier[3] !== undefined)) {
      out += `{${quantifier[1] || '0'}${quantifier[2] ?? ''}${quantifier[3] ?? ''}}`;
      i += quantifier[0].length;
      if (pattern[i] === '+') throw new PatternSyntaxError('possessive quantifiers are not supported');
      continue;
    }
    if ('*+?'.includes(c) && pattern[i + 1] === '+') throw new PatternSyntaxError('possessive quantifiers are not supported');
    if (c === '{' || c === '}') out += `\\${c}`;
    else if (c === '.') out += flags.has('s') ? '[\\s\\S]' : '[^\\n]';
    else if (c === '^') out += multiline ? `(?:${START}|(?<=\\n))` : START;
    else if (c === '$') out += multiline ? `(?=\\n|${END})` : `(?=\\n?${END})`;
    else out += c;
    i += 1;
  }
  return { source: out, flags: flags.has('i') ? 'iu' : 'u' };
}

/**
 * A character set `[...]` at `i`. Python allows `]` first and `[` inside as literals. `\W` and `\D` have no
 * Unicode spelling inside a JavaScript set, so a set holding them becomes an alternation (or, negated, a
 * lookahead test). Returns [text, chars used].
 */
function characterClass(pattern: string, start: number, ascii: boolean): [string, number] {
  let i = start + 1;
  const negated = pattern[i] === '^';
  if (negated) i += 1;
  let body = '';
  const complements: string[] = [];
  for (let first = true; ; first = false) {
    const c = pattern[i];
    if (c === undefined) throw new PatternSyntaxError('unterminated character set');
    if (c === ']' && !first) break;
    if (c === '\\' && !ascii && (pattern[i + 1] === 'W' || pattern[i + 1] === 'D')) {
      complements.push(pattern[i + 1] === 'W' ? '\\p{L}\\p{N}_' : '\\p{Nd}');
      i += 2;
    } else if (c === '\\') {
      const [text, used] = escape(pattern, i, true, ascii);
      body += text;
      i += used;
    } else {
      body += c === ']' || c === '[' ? `\\${c}` : c;
      i += 1;
    }
  }
  const used = i + 1 - start;
  if (complements.length === 0) return [`[${negated ? '^' : ''}${body}]`, used];
  if (!negated) return [`(?:${[...(body ? [`[${body}]`] : []), ...complements.map((p) => `[^${p}]`)].join('|')})`, used];
  return [`(?:${body ? `(?![${body}])` : ''}${complements.map((p) => `(?=[${p}])`).join('')}[\\s\\S])`, used];
}

/** A group opener: Python-only forms are rewritten, unsupported ones refused. Returns [text, chars used]. */
function group(pattern: string, i: number): [string, number] {
  const rest = pattern.slice(i);
  if (rest.startsWith('(?P<')) return ['(?<', 4];
  const backref = /^\(\?P=(\w+)\)/u.exec(rest);
  if (backref) return [`\\k<${backref[1]}>`, backref[0].length];
  if (rest.startsWith('(?#')) {
    const close = pattern.indexOf(')', i);
    if (close < 0) throw new PatternSyntaxError('missing ), unterminated comment');
    return ['', close - i + 1];
  }
  if (rest.startsWith('(?>')) throw new PatternSyntaxError('atomic groups (?>...) are not supported');
  if (/^\(\?[aiLmsux-]+[:)]/.test(rest)) throw new PatternSyntaxError('inline flags are only supported at the start of the pattern, as in (?i)');
  if (rest.startsWith('(?(')) throw new PatternSyntaxError('conditional groups are not supported');
  return ['(', 1];
}

/** A backslash escape at `i`. Returns [JavaScript text, chars used]. */
function escape(pattern: string, i: number, inClass: boolean, ascii: boolean): [string, number] {
  const d = pattern[i + 1];
  if (d === undefined) throw new PatternSyntaxError('bad escape (end of pattern)');
  if (/[0-7]/.test(d)) {
    const octal = /^(?:0[0-7]{0,2}|[0-7]{3})/.exec(pattern.slice(i + 1));
    if (octal && (d === '0' || octal[0].length === 3)) return [`\\u{${parseInt(octal[0], 8).toString(16)}}`, 1 + octal[0].length];
  }
  if (/[1-9]/.test(d)) {
    if (inClass) throw new PatternSyntaxError(`bad escape \\${d} in a character set`);
    const digits = /^\d{1,2}/.exec(pattern.slice(i + 1))![0];
    return [`\\${digits}(?:)`, 1 + digits.length];
  }
  if (d === 'U') {
    const hex = /^[0-9a-fA-F]{8}/.exec(pattern.slice(i + 2));
    if (!hex) throw new PatternSyntaxError('incomplete escape \\U');
    return [`\\u{${hex[0].replace(/^0+(?=.)/, '')}}`, 10];
  }
  if (d === 'N') throw new PatternSyntaxError('named characters \\N{...} are not supported');
  if (d === 'a') return ['\\x07', 2];
  if (d === 'A' || d === 'Z' || d === 'z') {
    if (inClass) throw new PatternSyntaxError(`bad escape \\${d} in a character set`);
    return [d === 'A' ? START : END, 2];
  }
  if (!ascii && 'wWdDbB'.includes(d)) return [unicodeClass(d, inClass), 2];
  if ('wWdDsSbBxu'.includes(d) || SIMPLE_ESCAPES.has(d)) return [`\\${d}`, 2];
  if ((d === 'p' || d === 'P') && pattern[i + 2] === '{') {
    const close = pattern.indexOf('}', i);
    if (close < 0) throw new PatternSyntaxError(`missing } in \\${d}{...}`);
    return [pattern.slice(i, close + 1), close - i + 1];
  }
  if (/[A-Za-z]/.test(d)) throw new PatternSyntaxError(`bad escape \\${d}`);
  if (SYNTAX.has(d) || (inClass && d === '-')) return [`\\${d}`, 2];
  return [d, 2];
}

function unicodeClass(d: string, inClass: boolean): string {
  if (inClass) {
    // \W and \D inside a set are handled by characterClass.
    if (d === 'w') return '\\p{L}\\p{N}_';
    if (d === 'd') return '\\p{Nd}';
    return d === 'b' ? '\\x08' : `\\${d}`;
  }
  switch (d) {
    case 'w': return WORD;
    case 'W': return NOT_WORD;
    case 'd': return '\\p{Nd}';
    case 'D': return '\\P{Nd}';
    case 'b': return `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;
    default: return `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`;
  }
}
