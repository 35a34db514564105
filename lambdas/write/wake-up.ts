/**
 * A promise that settles at the next `signal`, then renews: what a loop awaits for "something changed" (a reply
 * came, a slot freed) without leaving a reaction on every request in flight, as a Promise.race over them would.
 */
export class WakeUp {
  private next!: Promise<void>;
  private resolve!: () => void;

  constructor() {
    this.renew();
  }

  /** Settles at the next signal. */
  wait(): Promise<void> {
    return this.next;
  }

  /** Wakes whoever waits now; later waits wait for the signal after. */
  signal(): void {
    const resolve = this.resolve;
    this.renew();
    resolve();
  }

  private renew(): void {
    this.next = new Promise((resolve) => (this.resolve = resolve));
  }
}
