import type {
  BatchGetItemCommandInput,
  BatchGetItemCommandOutput,
  BatchWriteItemCommandInput,
  BatchWriteItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { CombineRows } from './combine-rows.js';
import type { Item, ItemSink } from './item-sink.js';
import type { DiffUpload } from '../sync-compare/diff-file.js';
import type { StatementWriteCalls } from './statement-writer.js';
import type { WriterOptions } from './writer-options.js';
import type { ImportCounts, KeyAttribute } from '../contract/workflow-payloads.js';
import type { WriteModeTraits } from '../contract/write-mode-traits.js';

/**
 * The DynamoDB calls the write modes make, one each (dynamodb-transport/write-transport.ts serves them all):
 * BatchWriteItem for `put`, `delete` and `sync`; BatchExecuteStatement for `insert` and `update`, with PutItem and
 * UpdateItem for their items that cannot be statements; BatchGetItem for `sync`'s reads before it writes.
 */
export interface WriteCalls extends StatementWriteCalls {
  batchWriteItem(input: BatchWriteItemCommandInput): Promise<BatchWriteItemCommandOutput>;
  batchGetItem(input: BatchGetItemCommandInput): Promise<BatchGetItemCommandOutput>;
}

/** What a mode's writer is given: the table's keys and the calls besides the options every writer takes. */
export interface ModeWriterOptions extends WriterOptions {
  readonly keys: readonly KeyAttribute[];
  readonly calls: WriteCalls;
  /** Reads before writes are strongly consistent (the request's `consistentRead`; `sync` reads). */
  readonly consistentRead: boolean;
  /**
   * Opens this invocation's diff file, for a dry run that reads the table (`sync`'s: sync-compare/diff-file.ts).
   * @default - none: a dry run of such a mode fails when it finds a difference
   */
  readonly openDiff?: () => DiffUpload;
}

/** What the metrics read of a writer (import/import-metrics.ts): the same for every mode. */
export interface WriterStats {
  readonly written: number;
  readonly throttledRetries: number;
  readonly unprocessedRetries: number;
  readonly inFlightLimit: number;
}

/** An invocation's counts of what the writes did (contract ImportCounts without the importer's rows and rejects). */
export type WriteCounts = Omit<ImportCounts, 'rows' | 'rejected'>;

/** The counts an import reports, by name (a mode's `reports`). */
export type { CountName } from '../contract/write-mode-traits.js';

export const NO_COUNTS: WriteCounts = {
  written: 0,
  skipped: 0,
  deleted: 0,
  added: 0,
  changed: 0,
  unchanged: 0,
  writeUnits: 0,
};

/** A mode's writer, opened for one chunk invocation. */
export interface ModeWriter {
  readonly writer: ItemSink & WriterStats;
  /**
   * Every row the writer took, counted once (contract ImportCounts), given `absorbed` rows combined with another row
   * of their key before they reached it (the spreading window).
   */
  counts(absorbed: number): WriteCounts;
}

/**
 * One write mode: an entry of the table in write-modes.ts, in a file of its own under write/modes/ (as Powertools'
 * batch picks a record class from DATA_CLASS_MAPPING), so a new mode is its file plus one line in the table. It owns
 * what it knows: its traits (contract/write-mode-traits.ts: reports, backup rule, lane share, pricing words, IAM
 * actions), spread in from the traits table, and its writer.
 */
export interface WriteModeEntry extends WriteModeTraits {
  /** Opens the writer this mode's items go to. */
  open(options: ModeWriterOptions): ModeWriter;
  /**
   * Opens its dry run's writer, for a mode that must read the table to know what it would write (`sync`): it sends no
   * write, and its counts carry the write units (`unitsOf` an item it would write).
   * @default - a DryRunSink: every item counted as written, its write units added up (write-modes.ts openWritePath)
   */
  dryRun?(options: ModeWriterOptions, unitsOf: (item: Item) => number): ModeWriter;
  /** How two rows of one key held back together (in a batch, in the spreading window) become one. */
  readonly combine: CombineRows;
  /**
   * The write units one record's write consumes, in the table and in the indexes it lands in (write-units.ts
   * itemWriteUnits: how many indexes, or the bytes of the item's entry in each).
   */
  writeUnits(itemBytes: number, indexesItLandsIn: number | readonly number[]): number;
}
