/** Reads an HTTP body of raw PCM16 as chunks of whole samples (a chunk may end mid-sample; the byte waits). */
import { UpstreamError } from './speech-port.js';

export async function* pcmChunks(response: Response, what: string): AsyncIterable<Uint8Array> {
  if (!response.ok || !response.body) {
    const detail = (await response.text().catch(() => '')).slice(0, 300);
    throw new UpstreamError(`${what} answered ${response.status}${detail ? `: ${detail}` : ''}`);
  }
  let carry: Uint8Array | undefined;
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
    let chunk = piece;
    if (carry) {
      chunk = new Uint8Array(carry.length + piece.length);
      chunk.set(carry);
      chunk.set(piece, carry.length);
      carry = undefined;
    }
    const whole = chunk.length & ~1;
    if (whole < chunk.length) carry = chunk.slice(whole);
    if (whole > 0) yield chunk.subarray(0, whole);
  }
}
