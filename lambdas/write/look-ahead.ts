/**
 * Partition keys the window should hold ready to send (their partition not backing off) before the lane stops
 * reading. A table's capacity is spread over its partitions and a key's partition is a hash of it, so the keys in the
 * window are what can keep them busy together. 512 keys put 16 on each of 32 partitions on average, so the busiest
 * partition's share of the window is about 1 + 2/sqrt(16) = 1.5 times the mean (128 keys: 2 times, and the window's
 * rows of it drained long after the others'). Keys of a partition that refuses rows do not count, so a lane whose
 * window fills with a hot partition's rows reads on and finds keys for the others (issue 37: sorted files at P = 32).
 */
export const KEYS_AHEAD = 512;

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
