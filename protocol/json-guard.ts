/**
 * Guards on untrusted JSON, applied before and during parsing so that no body, however built, costs more than its
 * bytes: nesting past MAX_JSON_DEPTH is refused before parsing (10,000 levels of `[` once overflowed the stack of
 * every recursive walk after the parse: validation, encoding, copying), and `__proto__` keys are dropped while
 * parsing, so no later merge or assignment of a parsed object can replace a prototype.
 */

/** Real Langflow exports nest about 12 levels; a batch or a ZIP of them a few more. */
export const MAX_JSON_DEPTH = 128;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of objects and arrays in `raw`, stopping as soon as it passes `limit`: one pass over the
 * bytes, brackets inside strings ignored. Bodies too short to nest past the limit are not scanned at all.
 */
export function nestsDeeperThan(raw: Uint8Array, limit: number): boolean {
  if (raw.length <= limit * 2) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

const PROTO_KEY = Buffer.from('"__proto__"');
/** `\u00` then 5, 6 or 7: an escaped ASCII letter or `_`, which no encoder writes but `"\u005f_proto__"` needs. */
const ESCAPE_START = Buffer.from('\\u00');

/** Whether `raw` may spell a `__proto__` key, plainly or with escapes the parse decodes into one. */
function mayHoldProtoKey(raw: Buffer): boolean {
  if (raw.indexOf(PROTO_KEY) !== -1) return true;
  for (let at = raw.indexOf(ESCAPE_START); at !== -1; at = raw.indexOf(ESCAPE_START, at + 4)) {
    const digit = raw[at + 4];
    if (digit === 0x35 || digit === 0x36 || digit === 0x37) return true;
  }
  return false;
}

/**
 * JSON.parse, dropping `__proto__` keys. The reviver sees keys decoded, so escaped spellings are dropped too; it
 * (a call per value) runs only for bodies that may hold one.
 */
export function parseUntrustedJson(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (!mayHoldProtoKey(raw)) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}
