import type { Checkpoint, Chunk } from '../contract/workflow-payloads.js';

/** A chunk's range within its object: the planners cut one object; their caller names which. */
export type ByteRange = Omit<Chunk, 'object'>;

/** One object's chunks as one planning call cut them. */
export interface ObjectPlan {
  readonly ranges: ByteRange[];
  /** Where to resume in this object, or null when it is done. */
  readonly next: Checkpoint | null;
  /** Where the object's data ended (for the final checkpoint). */
  readonly end: Checkpoint;
}

/**
 * Cuts a plain object's data [from, size) into byte ranges of `chunkBytes` from its size alone: no byte of it is
 * read, so preflight ends in one invocation whatever the size and the Map starts at once. No range has a `line`:
 * each lane owns the records that start in it (byte-range.ts), the first one from the data start, and
 * counts lines from its first record; Summarize numbers them from the import's `dataLine` (PlanningState). An
 * object holds at most ceil(size / chunkBytes) ranges: the chunk budget (chunk-budget.ts) sizes `chunkBytes` so
 * that all of them stay within MAX_CHUNKS.
 */
export function planRanges(chunkBytes: number, size: number, from: Checkpoint): ByteRange[] {
  const ranges: ByteRange[] = [];
  for (let start = from.offset; start < size; start += chunkBytes) {
    const end = Math.min(size, start + chunkBytes);
    ranges.push({ start, end });
  }
  return ranges;
}
