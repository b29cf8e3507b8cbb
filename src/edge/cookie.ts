/**
 * Reads cookies through the `cookie` package. A value that does not percent-decode (`%%%`, a cut UTF-8 sequence
 * such as `%E0%A4%A`) is ignored, as browsers and frameworks do: one bad cookie never fails a request, nor passes
 * on as a credential in its raw form.
 */
import { parseCookie } from 'cookie';

function decodeOrIgnore(value: string): string | undefined {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** Reads one cookie from a Cookie header; undefined when it is absent or does not decode. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  return parseCookie(header, { decode: decodeOrIgnore })[name];
}
