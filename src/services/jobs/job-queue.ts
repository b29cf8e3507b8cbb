/** Runs at most `limit` background jobs at once; the rest wait in arrival order (their status says `queued`). */
export class JobQueue<T> {
  private readonly waiting: T[] = [];
  private running = 0;

  constructor(
    private readonly limit: number,
    private readonly run: (item: T) => Promise<void>,
  ) {}

  push(item: T): void {
    this.waiting.push(item);
    // Started on a later turn, so the caller's reply (which says `queued`) is built first.
    setImmediate(() => this.pump());
  }

  /** Takes a waiting item out (a stop before it started); false when it is not waiting. */
  remove(item: T): boolean {
    const index = this.waiting.indexOf(item);
    if (index === -1) return false;
    this.waiting.splice(index, 1);
    return true;
  }

  get size(): number {
    return this.waiting.length;
  }

  private pump(): void {
    while (this.running < this.limit && this.waiting.length > 0) {
      const item = this.waiting.shift()!;
      this.running++;
      void this.run(item).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }
}
