/**
 * Partition keys the window should hold at once. A table's capacity is spread over its partitions and a key's
 * partition is a hash of it, so the keys in the window are what can keep them busy together: 128 keys leave about
 * 2% of 32 partitions without one (32 x e^(-128/32) = 0.6 partitions), and fewer keys would leave whole partitions idle
 * while a file sorted by key sends its rows.
 */
export const KEYS_AHEAD = 128;

/** The window's floor in rows: two rounds of the requests in flight (2 x 16 x 25), so a random file keeps them full. */
export const MIN_LOOK_AHEAD = 800;

/** The window's ceiling in rows held unsent: 20,000 rows of the 1-gram files take about 10 MB of heap. */
export const MAX_LOOK_AHEAD = 20_000;

/**
 * A lane reads at most this many rows past its first unwritten row (held, in flight, or written after it): what a
 * stopping lane reads again, and the rows it keeps a small record of (write/read-span.ts). Twice the window, so rows
 * written past a hot key's refused row do not stop the reading while other keys have work.
 */
export const MAX_SPAN_ROWS = 2 * MAX_LOOK_AHEAD;

/**
 * ... and at most this many bytes of records (RowMark.bytes): the bound that holds when rows are large (a file of
 * items near 400 KB holds ~40 rows, not 20,000). With MAX_SPAN_ROWS it bounds a lane's rows in memory besides the
 * requests in flight: min(40,000 rows, 16 MiB of records), at most 20,000 of them unsent.
 */
export const MAX_SPAN_BYTES = 16 * 1024 * 1024;

/** Rows to hold before sending, given how many rows in a row share a partition key (KEYS_AHEAD of them). */
export function lookAhead(rowsPerKey: number): number {
  return Math.min(MAX_LOOK_AHEAD, Math.max(MIN_LOOK_AHEAD, Math.ceil(KEYS_AHEAD * rowsPerKey)));
}

/**
 * How many rows in a row share a partition key, on average so far: rows over runs (a run ends where the partition key
 * changes). A shuffled file gives ~1, a file sorted by key its rows per key.
 */
export class RowsPerKey {
  private rows = 0;
  private runs = 0;
  private last: string | undefined;

  get value(): number {
    return this.runs === 0 ? 1 : this.rows / this.runs;
  }

  saw(partitionKey: string): void {
    this.rows++;
    if (partitionKey !== this.last) this.runs++;
    this.last = partitionKey;
  }
}
