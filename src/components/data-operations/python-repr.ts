/**
 * Python's repr() for the values Text Extract produces: the groups of one match are a tuple, and Langflow writes
 * each tuple into the message with str(), e.g. `('john', 'example.com')`.
 */

export function pythonRepr(value: unknown): string {
  if (typeof value === 'string') return stringRepr(value);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return value.length === 1 ? `(${pythonRepr(value[0])},)` : `(${value.map(pythonRepr).join(', ')})`;
  if (typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${stringRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  return String(value);
}

/** Single quotes unless the text has a single quote and no double quote; escapes as Python prints them. */
function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (c === quote || c === '\\') out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return out + quote;
}
