import { keepLater, type CombineRows } from './combine-rows.js';
import type { Item, ItemSink, RowMark } from './item-sink.js';

/** Items reordered at a time: 80 batches of 25, so each batch draws from rows ~80 apart in the file. */
export const SPREAD_WINDOW = 2000;
const BATCH = 25;

/**
 * Reorders writes inside a window so that a file sorted by partition key does not send 25 rows of the
 * same key range at once: the window's items go out strided (item 0, 80, 160, ... then 1, 81, ...),
 * so consecutive batches touch far-apart keys. A key repeated in the window is sent once, its rows
 * combined by the mode's rule (combine-rows.ts), so the reordering can never change the outcome. In front of a
 * writer that spreads rows itself (the BatchWriter of `put` and `delete`, which holds a window by partition key and
 * learns from what the table refuses: write/windowed-sender.ts) it passes rows straight through: the request's
 * `spread` stays valid, and there striding a window a second time only delayed the rows (issue 37's figures).
 */
export class SpreadingSink implements ItemSink {
  /** Rows combined into another row of their key in the window, so not sent on their own. */
  absorbed = 0;
  private window = new Map<string, Item>();

  constructor(
    private readonly inner: ItemSink,
    private readonly windowSize = SPREAD_WINDOW,
    private readonly combine: CombineRows = keepLater,
  ) {}

  get written(): number {
    return this.inner.written;
  }

  /** The inner sink's first unwritten row after a flush that stopped early (only a sink that spreads itself stops so). */
  get heldFrom(): RowMark | undefined {
    return this.inner.heldFrom;
  }

  add(item: Item, key: string, at?: RowMark): Promise<void> | undefined {
    if (this.inner.spreadsItself) return this.inner.add(item, key, at);
    const earlier = this.window.get(key);
    if (earlier === undefined) this.window.set(key, item);
    else {
      this.absorbed++;
      this.window.delete(key); // re-inserting moves the key to its latest position
      this.window.set(key, this.combine(earlier, item));
    }
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
