import type { Item, ItemSink } from './item-sink.js';

/** Items reordered at a time: 80 batches of 25, so each batch draws from rows ~80 apart in the file. */
export const SPREAD_WINDOW = 2000;
const BATCH = 25;

/**
 * Reorders writes inside a window so that a file sorted by partition key does not send 25 rows of the
 * same key range at once: the window's items go out strided (item 0, 80, 160, ... then 1, 81, ...),
 * so consecutive batches touch far-apart keys. A key repeated in the window keeps only its last row,
 * so the reordering can never change which row wins.
 */
export class SpreadingSink implements ItemSink {
  private window = new Map<string, Item>();

  constructor(
    private readonly inner: ItemSink,
    private readonly windowSize = SPREAD_WINDOW,
  ) {}

  get written(): number {
    return this.inner.written;
  }

  add(item: Item, key: string): Promise<void> | undefined {
    this.window.delete(key); // re-inserting moves the key to its latest position: last row wins
    this.window.set(key, item);
    return this.window.size >= this.windowSize ? this.drain() : undefined;
  }

  async flush(): Promise<void> {
    await this.drain();
    await this.inner.flush();
  }

  private async drain(): Promise<void> {
    const entries = [...this.window];
    this.window = new Map();
    const stride = Math.ceil(entries.length / BATCH);
    for (let start = 0; start < stride; start++) {
      for (let i = start; i < entries.length; i += stride) {
        const queued = this.inner.add(entries[i][1], entries[i][0]);
        if (queued) await queued;
      }
    }
  }
}
