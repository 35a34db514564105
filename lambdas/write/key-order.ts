import type { RequestSlots } from './request-slots.js';

/**
 * Keeps the rows of one key in file order across requests in flight: a request holding a key that an earlier request
 * in flight also holds is sent only once that one has settled. The BatchWriter and the StatementWriter share
 * it; each request takes one of the writer's slots.
 */
export class KeyOrder {
  /** The latest request in flight holding each key. */
  private readonly owners = new Map<string, Promise<void>>();

  constructor(
    private readonly slots: RequestSlots,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Sends a request holding `keys` (after the earlier requests holding any of them) and tracks it in a slot. */
  send(keys: readonly string[], send: () => Promise<void>): void {
    let earlier: Set<Promise<void>> | undefined;
    for (const key of keys) {
      const owner = this.owners.get(key);
      if (owner) (earlier ??= new Set()).add(owner);
    }
    const sent = earlier ? Promise.all(earlier).then(send) : send();
    const tracked = this.slots.track(sent, this.onError, (settled) => {
      for (const key of keys) if (this.owners.get(key) === settled) this.owners.delete(key);
    });
    for (const key of keys) this.owners.set(key, tracked);
  }
}
