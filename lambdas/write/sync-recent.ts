import type { Item } from './item-sink.js';

/**
 * Keys sync remembers the latest item of: 40 batches of 100 keys, more than the 16 reads and the BatchWriter's 16
 * writes in flight hold (16 x 100 + 16 x 25 = 2,000), so a key whose earlier row is still being read or written is
 * always found. About 4,000 items of memory (4 MB at 1 KB each).
 */
export const RECENT_KEYS = 4_000;

/**
 * The items sync compared last, by key text, the oldest dropped past `limit`: what the table holds, or will hold once
 * the writes in flight land, under those keys. A later row of one of them is compared with its item rather than
 * with a read, which could come before the earlier row's write (or, eventually consistent, not see it yet).
 */
export class RecentItems {
  private readonly items = new Map<string, Item>();

  constructor(private readonly limit = RECENT_KEYS) {}

  has(key: string): boolean {
    return this.items.has(key);
  }

  get(key: string): Item | undefined {
    return this.items.get(key);
  }

  /** Remembers `item` as the key's latest; the oldest key goes when over the limit. */
  set(key: string, item: Item): void {
    this.items.delete(key); // set again below: the key becomes the newest
    this.items.set(key, item);
    if (this.items.size > this.limit) this.items.delete(this.items.keys().next().value!);
  }
}
