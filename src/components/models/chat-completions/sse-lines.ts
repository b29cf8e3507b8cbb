/**
 * An incremental reader of server-sent events that keeps only their `data` (what chat-completions streams carry):
 * lines end with LF, CRLF or CR; `data:` lines of one event are joined with "\n"; a blank line dispatches it;
 * comments (`:`) and other fields (event, id, retry) are skipped; a leading BOM is dropped. One small object per
 * stream and no closures (eventsource-parser allocates a dozen per parser, and 10,000 open streams hold 10,000).
 */
/** Who gets each event's data (an object with a method, so a reader needs no closure to call back). */
export interface SseSink {
  onData(data: string): void;
}

export class SseDataReader {
  /** An unfinished line carried over to the next chunk. */
  private rest = '';
  private data = '';
  private hasData = false;
  private started = false;

  /** Feeds one decoded chunk; `sink` gets each complete event's data, in order. */
  feed(chunk: string, sink: SseSink): void {
    let text = this.rest === '' ? chunk : this.rest + chunk;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.includes('\r')) {
      // A CR at the very end may be the first half of a CRLF split across chunks: keep it for the next one.
      const cut = text.endsWith('\r') ? text.length - 1 : text.length;
      this.rest = text.slice(cut);
      text = text.slice(0, cut).replace(/\r\n?/g, '\n');
    } else this.rest = '';
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      this.line(text, start, end, sink);
      start = end + 1;
    }
    if (start < text.length) this.rest = text.slice(start) + this.rest;
  }

  private line(text: string, start: number, end: number, sink: SseSink): void {
    if (start === end) {
      if (!this.hasData) return;
      const data = this.data;
      this.data = '';
      this.hasData = false;
      sink.onData(data);
      return;
    }
    if (!text.startsWith('data', start)) return; // a comment or another field
    let from = start + 4;
    if (from < end && text.charCodeAt(from) !== 0x3a) return; // "database: x" is another field
    if (from < end) from++; // the colon ("data" alone is an empty value)
    if (text.charCodeAt(from) === 0x20 && from < end) from++; // one optional space
    const value = text.slice(from, end);
    this.data = this.hasData ? `${this.data}\n${value}` : value;
    this.hasData = true;
  }
}
