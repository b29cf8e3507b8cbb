/**
 * The `data` of server-sent events, read from a reply's raw bytes as they arrive, by the event-stream rules that
 * matter to a chat-completions reply: lines end with CRLF, LF or CR (a CRLF may be split across reads), the `data`
 * lines of one event are joined with LF, a blank line ends the event (dispatched when it had a data line),
 * comments and the other fields (`event`, `id`, `retry`) are ignored, a leading byte-order mark is dropped, and an
 * event the stream never ended is not dispatched.
 *
 * This replaces eventsource-parser and the response's own UTF-8 decoding (`setEncoding`) for one reason: an open
 * stream holds its parser for as long as the model takes, and those cost ~0.9 KB a stream (seven closures and
 * their context; a StringDecoder with its own buffer), where this is one object. Bytes are decoded here: a read
 * that ends inside a character keeps that character's first bytes for the next read.
 */

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/** Who hears the events: an object with a method, so that a parser needs no closure. */
export interface SseDataTarget {
  onSseData(data: string): void;
}

export class SseDataParser {
  /** A line not ended yet (its text so far), carried to the next read. */
  #pending = '';
  /** The event's data so far; undefined until it has a data line. */
  #data: string | undefined = undefined;
  /** The last read ended with CR: a LF opening the next one ends the same line. */
  #afterCR = false;
  #started = false;
  /** The first bytes of a character the last read cut. */
  #carry: Buffer | undefined = undefined;

  constructor(private readonly target: SseDataTarget) {}

  /** One read off the socket. */
  feedBytes(bytes: Buffer): void {
    if (this.#carry) {
      bytes = Buffer.concat([this.#carry, bytes]);
      this.#carry = undefined;
    }
    const whole = wholeCharacters(bytes);
    // A copy: a slice would keep the whole read buffer alive until the next read.
    if (whole < bytes.length) this.#carry = Buffer.from(bytes.subarray(whole));
    if (whole > 0) this.feed(bytes.toString('utf8', 0, whole));
  }

  feed(text: string): void {
    if (!this.#started) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.#pending !== '') {
      text = this.#pending + text;
      this.#pending = '';
    }
    let i = 0;
    if (this.#afterCR) {
      this.#afterCR = false;
      if (text.charCodeAt(0) === LF) i = 1;
    }
    let lineStart = i;
    const length = text.length;
    for (; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code !== LF && code !== CR) continue;
      this.line(text, lineStart, i);
      if (code === CR) {
        if (i + 1 === length) this.#afterCR = true;
        else if (text.charCodeAt(i + 1) === LF) i++;
      }
      lineStart = i + 1;
    }
    if (lineStart < length) this.#pending = text.slice(lineStart);
  }

  private line(text: string, start: number, end: number): void {
    if (start === end) return this.dispatch();
    if (text.charCodeAt(start) === COLON) return; // a comment
    const colon = text.indexOf(':', start);
    const nameEnd = colon === -1 || colon > end ? end : colon;
    if (nameEnd - start !== 4 || !text.startsWith('data', start)) return;
    let valueStart = nameEnd === end ? end : nameEnd + 1;
    if (valueStart < end && text.charCodeAt(valueStart) === SPACE) valueStart++;
    const value = text.slice(valueStart, end);
    this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
  }

  private dispatch(): void {
    const data = this.#data;
    if (data === undefined) return;
    this.#data = undefined;
    this.target.onSseData(data);
  }
}

/** How many of the bytes make whole UTF-8 characters: all, or all but a last character the read cut short. */
function wholeCharacters(bytes: Buffer): number {
  const length = bytes.length;
  let lead = length - 1;
  // Back over continuation bytes (10xxxxxx) to the last character's first byte; at most three.
  while (lead >= 0 && lead > length - 4 && (bytes[lead] & 0xc0) === 0x80) lead--;
  if (lead < 0) return length;
  const first = bytes[lead];
  const size = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return length - lead >= size ? length : lead;
}
