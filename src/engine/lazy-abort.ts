/**
 * A run's cancellation: an AbortController that is only made when someone reads its signal. Most runs finish
 * without any component asking for the signal (chat I/O, prompts, parsers), and making a signal costs ~2.5 us,
 * a few percent of a whole echo run; model and HTTP components still get a real signal, already aborted if the
 * run was cancelled before they asked.
 */
export class LazyAbortController {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
