import type { Item, ItemSink } from './item-sink.js';

/**
 * A dry run's writer: takes every item the import would write, sends nothing, and adds up the write units the
 * writes would consume (`unitsOf`: the mode's `writeUnits`, write/write-modes.ts openWritePath).
 */
export class DryRunSink implements ItemSink {
  /** Nothing is written in a dry run. */
  readonly written = 0;
  /** Items that reached the writer: every row that was not rejected. */
  items = 0;
  writeUnits = 0;
  readonly throttledRetries = 0;
  readonly unprocessedRetries = 0;
  /** No request is ever in flight. */
  readonly inFlightLimit = 0;

  constructor(private readonly unitsOf: (item: Item) => number) {}

  add(item: Item): undefined {
    this.items++;
    this.writeUnits += this.unitsOf(item);
    return undefined;
  }

  async flush(): Promise<void> {}
}
