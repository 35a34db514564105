/**
 * Counts a chunk import returns; added up over checkpoint loops and then over chunks. Every row is counted once:
 * rows = written + skipped + deleted + rejected (a dry run writes, skips and deletes nothing).
 */
export interface ImportCounts {
  /** Data records read. */
  readonly rows: number;
  /**
   * Rows whose item was written: `put` and `insert` items acknowledged by the table; `update` rows applied (rows of
   * one key merged before sending count each, since each row's values landed).
   */
  readonly written: number;
  /** Rows written to the rejects file. */
  readonly rejected: number;
  /**
   * Rows not written on purpose: `insert` rows whose key already had an item (in the table, or from an earlier row
   * of the file); `put` rows replaced by a later row of the same key before they were sent.
   */
  readonly skipped: number;
  /** `delete` rows whose key was deleted (a key with no item counts too: the table no longer holds it). */
  readonly deleted: number;
  /** `sync` rows whose key had no item in the table: put (in a dry run, would be). 0 for every other mode. */
  readonly added: number;
  /** `sync` rows whose key held a different item: put whole (in a dry run, would be). 0 for every other mode. */
  readonly changed: number;
  /** `sync` rows whose key already held the same item: nothing written. 0 for every other mode. */
  readonly unchanged: number;
  /**
   * A dry run's write units: what the writes of its mode would consume, by DynamoDB's 1 KB rounding per item and per
   * secondary index the item lands in (write/write-units.ts). 0 for an import that writes.
   */
  readonly writeUnits: number;
}

/** Every count of ImportCounts: a new count is one name here (and its field), and every total adds it. */
export const IMPORT_COUNT_NAMES = [
  'rows',
  'written',
  'rejected',
  'skipped',
  'deleted',
  'added',
  'changed',
  'unchanged',
  'writeUnits',
] as const satisfies readonly (keyof ImportCounts)[];

/** Every count 0. */
export const NO_IMPORT_COUNTS: ImportCounts = countsOf(() => 0);

/** Counts made name by name. */
export function countsOf(count: (name: keyof ImportCounts) => number): ImportCounts {
  return Object.fromEntries(IMPORT_COUNT_NAMES.map((name) => [name, count(name)])) as unknown as ImportCounts;
}

/**
 * The sum of two counts, name by name; `earlier` may be absent (a chunk's first invocation).
 *
 * @example
 * addImportCounts({ ...NO_IMPORT_COUNTS, rows: 2 }, { ...NO_IMPORT_COUNTS, rows: 3 }).rows; // 5
 */
export function addImportCounts(earlier: ImportCounts | undefined, later: ImportCounts): ImportCounts {
  return countsOf((name) => (earlier?.[name] ?? 0) + later[name]);
}

/** One Map result (the ChunkImported Pass state keeps only these). */
export interface ChunkResult extends ImportCounts {
  readonly chunk: number;
  /** ChunkProgress.lines of the finished chunk, for a chunk without `line` (ChunkImportedWithLines). */
  readonly lines?: number;
}

/**
 * One Map result as the ChunkImported state leaves it: the counts as a bare array, in the order of CHUNK_RESULT_FIELDS.
 * Its keys would take more room than its numbers: named, a chunk's 7 counts at their 5 TiB worst take 143 bytes, and
 * 1,000 of them put the state after the Map over Step Functions' 256 KiB (test/lambdas/preflight/state-size.test.ts);
 * as an array, 74.
 */
export type ChunkResultArray = readonly number[];
export const CHUNK_RESULT_FIELDS = [
  'chunk',
  'rows',
  'written',
  'rejected',
  'skipped',
  'deleted',
  'writeUnits',
  'added',
  'changed',
  'unchanged',
] as const;

/** A Map result as a ChunkResult: the ChunkImported array named by CHUNK_RESULT_FIELDS. Null when it is not one. */
export function chunkResultOf(value: unknown): ChunkResult | null {
  if (!Array.isArray(value)) return null;
  // ChunkImportedWithLines appends the chunk's LFs to the array.
  const named: Record<string, unknown> = {
    ...Object.fromEntries(CHUNK_RESULT_FIELDS.map((field, i) => [field, value[i]])),
    ...(value.length > CHUNK_RESULT_FIELDS.length ? { lines: value[CHUNK_RESULT_FIELDS.length] } : {}),
  };
  const complete = CHUNK_RESULT_FIELDS.every((field) => typeof named[field] === 'number');
  return complete ? (named as unknown as ChunkResult) : null;
}
