/**
 * The edge cases of the fuzz beyond JSON bodies: multipart bodies built to break a form parser, cookies and
 * headers that do not decode or are huge, and duplicated credentials. Deterministic: the same bytes every run.
 */
const FLOW_FILE = '{"name":"fuzzed","data":{"nodes":[],"edges":[]}}';

interface Part {
  name: string;
  filename?: string;
  content: string;
}

function form(boundary: string, parts: Part[], terminated = true): Buffer {
  const text = parts
    .map(({ name, filename, content }) => {
      const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
      return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${filename === undefined ? '' : 'Content-Type: application/json\r\n'}\r\n${content}\r\n`;
    })
    .join('');
  return Buffer.from(terminated ? `${text}--${boundary}--\r\n` : text);
}

const contentType = (boundary: string) => `multipart/form-data; boundary=${boundary}`;
const file = (filename = 'flow.json'): Part => ({ name: 'file', filename, content: FLOW_FILE });

export interface MultipartCase {
  what: string;
  contentType: string;
  body: Buffer;
}

/** Multipart bodies for every upload route. */
export const MULTIPART_CASES: MultipartCase[] = [
  { what: 'unterminated', contentType: contentType('XB'), body: form('XB', [file()], false) },
  { what: 'wrong boundary', contentType: contentType('NOT-THE-ONE'), body: form('XB', [file()]) },
  { what: '5 KB boundary', contentType: contentType('b'.repeat(5 * 1024)), body: form('b'.repeat(5 * 1024), [file()]) },
  { what: '1,000 parts', contentType: contentType('XB'), body: form('XB', [...Array.from({ length: 999 }, (_, i) => ({ name: `f${i}`, content: 'v' })), file()]) },
  { what: 'a part with no file', contentType: contentType('XB'), body: form('XB', [{ name: 'file', content: FLOW_FILE }]) },
  { what: '__proto__ field names', contentType: contentType('XB'), body: form('XB', [{ name: '__proto__', content: '{"polluted":1}' }, { name: 'constructor', content: 'x' }, { ...file(), name: '__proto__' }, file()]) },
  { what: '10 KB file name', contentType: contentType('XB'), body: form('XB', [file(`${'n'.repeat(10 * 1024)}.json`)]) },
  { what: '../ names', contentType: contentType('XB'), body: form('XB', [file('../../../../etc/passwd'), { ...file('..\\..\\boot.ini'), name: 'files' }]) },
  { what: 'no boundary at all', contentType: 'multipart/form-data', body: form('XB', [file()]) },
];

/** Cookie headers sent on every route, with and without a key. */
export const COOKIES = ['access_token_lf=%%%', 'access_token_lf=%E0%A4%A', 'a=%%%; refresh_token_lf=%zz; client_id=%E0%A4%A', `access_token_lf=${'c'.repeat(10 * 1024)}`];

/** Headers of 10 KB: credentials and otherwise. */
export const HUGE_HEADERS: Record<string, string>[] = [
  { 'x-api-key': 'k'.repeat(10 * 1024) },
  { authorization: `Bearer ${'t'.repeat(10 * 1024)}` },
  { 'x-langflow-global-var-openai-api-key': 'v'.repeat(10 * 1024), origin: `http://${'o'.repeat(10 * 1024)}` },
];

/** A raw request carrying its credentials twice, one valid and one not, in each header that carries them. */
export function duplicatedAuth(method: string, path: string, key: string): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `x-api-key: ${key}`, 'x-api-key: sk-not-a-key', 'Authorization: Bearer not-a-token', `Authorization: Bearer x`, 'Cookie: access_token_lf=%%%', 'Cookie: access_token_lf=y', 'Content-Length: 0', 'Connection: close', '', ''].join('\r\n');
}
