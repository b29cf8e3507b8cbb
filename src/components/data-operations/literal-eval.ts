/**
 * Literal Eval's reader: a string holding a JSON value or a Python literal (what ast.literal_eval accepts: dicts,
 * lists, tuples and sets, quoted strings with Python escapes and prefixes, numbers with underscores or 0x/0o/0b,
 * True, False, None) becomes that value; anything else is left as the string it was. Tuples and sets become
 * lists, and dict keys become strings, as JSON needs.
 */

const NOT_LITERAL = Symbol('not a literal');

/** The value a string spells, or `undefined` when it is not a literal. */
export function literalValue(text: string): { value: unknown } | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return { value: JSON.parse(trimmed) };
  } catch {
    // Not JSON; try Python's literal syntax.
  }
  const reader = new LiteralReader(trimmed);
  const value = reader.read();
  return value === NOT_LITERAL ? undefined : { value };
}

class LiteralReader {
  private i = 0;
  constructor(private readonly s: string) {}

  read(): unknown {
    try {
      const value = this.value();
      this.space();
      return this.i === this.s.length ? value : NOT_LITERAL;
    } catch (error) {
      if (error === NOT_LITERAL) return NOT_LITERAL;
      throw error;
    }
  }

  private value(): unknown {
    this.space();
    const c = this.s[this.i];
    if (c === '[') return this.sequence(']').items;
    if (c === '(') {
      const { items, commas } = this.sequence(')');
      // (x) is just x; a tuple needs a comma.
      return items.length === 1 && commas === 0 ? items[0] : items;
    }
    if (c === '{') return this.braces();
    if (c === '-' || c === '+') {
      this.i++;
      const n = this.value();
      if (typeof n !== 'number') throw NOT_LITERAL;
      return c === '-' ? -n : n;
    }
    if (this.s.startsWith('set()', this.i)) {
      this.i += 5;
      return [];
    }
    const word = /^(True|False|None)\b/.exec(this.s.slice(this.i));
    if (word) {
      this.i += word[0].length;
      return word[1] === 'True' ? true : word[1] === 'False' ? false : null;
    }
    if (/^[rRuU]?['"]/.test(this.s.slice(this.i, this.i + 2))) return this.strings();
    return this.number();
  }

  private sequence(close: string): { items: unknown[]; commas: number } {
    this.i++;
    const items: unknown[] = [];
    let commas = 0;
    for (;;) {
      this.space();
      if (this.s[this.i] === close) break;
      items.push(this.value());
      this.space();
      if (this.s[this.i] === ',') {
        this.i++;
        commas++;
      } else if (this.s[this.i] !== close) throw NOT_LITERAL;
    }
    this.i++;
    return { items, commas };
  }

  /** A dict, or a set (which becomes a list). */
  private braces(): unknown {
    this.i++;
    const dict: Record<string, unknown> = {};
    const set: unknown[] = [];
    for (;;) {
      this.space();
      if (this.s[this.i] === '}') break;
      const key = this.value();
      this.space();
      if (this.s[this.i] === ':') {
        if (set.length) throw NOT_LITERAL;
        this.i++;
        dict[keyText(key)] = this.value();
      } else {
        if (Object.keys(dict).length) throw NOT_LITERAL;
        set.push(key);
      }
      this.space();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') throw NOT_LITERAL;
    }
    this.i++;
    return set.length ? set : dict;
  }

  /** One or more adjacent string literals (Python concatenates them). */
  private strings(): string {
    let out = '';
    do {
      out += this.string();
      this.space();
    } while (/^[rRuU]?['"]/.test(this.s.slice(this.i, this.i + 2)));
    return out;
  }

  private string(): string {
    const raw = /[rR]/.test(this.s[this.i]);
    if (/[rRuU]/.test(this.s[this.i])) this.i++;
    const quote = this.s.startsWith(this.s[this.i].repeat(3), this.i) ? this.s[this.i].repeat(3) : this.s[this.i];
    this.i += quote.length;
    let out = '';
    while (!this.s.startsWith(quote, this.i)) {
      const c = this.s[this.i];
      if (c === undefined || (quote.length === 1 && c === '\n')) throw NOT_LITERAL;
      if (c === '\\') {
        out += raw ? c + (this.s[this.i + 1] ?? '') : this.escape();
        this.i += raw ? 2 : 0;
      } else {
        out += c;
        this.i++;
      }
    }
    this.i += quote.length;
    return out;
  }

  private escape(): string {
    const d = this.s[this.i + 1];
    const simple: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };
    if (d in simple) {
      this.i += 2;
      return simple[d];
    }
    const hex = d === 'x' ? 2 : d === 'u' ? 4 : d === 'U' ? 8 : 0;
    const octal = /^[0-7]{1,3}/.exec(this.s.slice(this.i + 1));
    const digits = hex ? this.s.slice(this.i + 2, this.i + 2 + hex) : octal?.[0];
    if (digits && (!hex || /^[0-9a-fA-F]+$/.test(digits) && digits.length === hex)) {
      this.i += 1 + (hex ? 1 : 0) + digits.length;
      return String.fromCodePoint(parseInt(digits, hex ? 16 : 8));
    }
    if (hex || d === 'N') throw NOT_LITERAL;
    this.i += 1;
    return '\\';
  }

  private number(): number {
    const m = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)/.exec(this.s.slice(this.i));
    if (!m || /_$|__|_\.|\._/.test(m[0]) || /^0\d/.test(m[0].replace(/_/g, '')) && /^[\d_]+$/.test(m[0]) && /[1-9]/.test(m[0])) throw NOT_LITERAL;
    this.i += m[0].length;
    if (/^[jJ]/.test(this.s[this.i] ?? '')) throw NOT_LITERAL;
    const text = m[0].replace(/_/g, '');
    const radix = /^0[xX]/.test(text) ? 16 : /^0[oO]/.test(text) ? 8 : /^0[bB]/.test(text) ? 2 : 10;
    return radix === 10 ? Number(text) : parseInt(text.slice(2), radix);
  }

  private space(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }
}

/** Python dict keys as JSON object keys (json.dumps writes True as "true", None as "null"). */
function keyText(key: unknown): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'number' || typeof key === 'boolean' || key === null) return String(key);
  throw NOT_LITERAL;
}
