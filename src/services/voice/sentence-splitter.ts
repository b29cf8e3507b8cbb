/**
 * Cuts an answer streaming in as tokens into sentences, so speech starts once the first sentence is complete
 * rather than when the whole answer is. A sentence ends at `.`, `!`, `?` (or `…`, or a line break) followed by
 * white space; what is left when the answer ends is the last sentence.
 */
const BOUNDARY = /[.!?…]+["')\]]*\s+|\n+/g;
/** A "sentence" longer than this is cut at its last space before it: speech never waits on a run-on answer. */
const LONGEST = 400;

export class SentenceSplitter {
  #pending = '';

  /** The sentences `text` completes. */
  push(text: string): string[] {
    this.#pending += text;
    const sentences: string[] = [];
    let start = 0;
    BOUNDARY.lastIndex = 0;
    for (let match = BOUNDARY.exec(this.#pending); match; match = BOUNDARY.exec(this.#pending)) {
      const end = match.index + match[0].length;
      const sentence = this.#pending.slice(start, end).trim();
      if (sentence) sentences.push(sentence);
      start = end;
    }
    this.#pending = this.#pending.slice(start);
    while (this.#pending.length > LONGEST) {
      const cut = this.#pending.lastIndexOf(' ', LONGEST);
      const at = cut > 0 ? cut : LONGEST;
      sentences.push(this.#pending.slice(0, at).trim());
      this.#pending = this.#pending.slice(at);
    }
    return sentences;
  }

  /** The rest, once the answer is complete. */
  end(): string | undefined {
    const rest = this.#pending.trim();
    this.#pending = '';
    return rest || undefined;
  }
}
