/**
 * The requests an edge has under way, for a graceful shutdown: once draining, every answer closes its connection
 * (a client on a kept-alive connection goes to the next server instead of sending more here), and `drained`
 * resolves when the last request under way has been answered or given up by its client.
 */
export class Traffic {
  private underWay = 0;
  private onIdle?: () => void;
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  begin(): void {
    this.underWay++;
  }

  end(): void {
    this.underWay--;
    if (this.underWay === 0) this.onIdle?.();
  }

  drained(): Promise<void> {
    this.#draining = true;
    if (this.underWay === 0) return Promise.resolve();
    return new Promise((resolve) => (this.onIdle = resolve));
  }
}
