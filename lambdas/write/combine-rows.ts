import type { Item } from './item-sink.js';

/**
 * How two rows of one key held back together become one (inside a batch, which may not name a key twice, or in
 * the spreading window), so holding them back never changes the outcome. Each write mode names its rule
 * (write/write-modes.ts).
 */
export type CombineRows = (earlier: Item, later: Item) => Item;

/** The later row wins: what writing both in file order leaves, when each write replaces the item. */
export const keepLater: CombineRows = (_earlier, later) => later;

/** The earlier row wins: what writing both in file order leaves, when a write never replaces an item. */
export const keepEarlier: CombineRows = (earlier) => earlier;

/** The later row's values over the earlier's: what applying both merges in file order leaves. */
export const mergeLaterOver: CombineRows = (earlier, later) => ({ ...earlier, ...later });
