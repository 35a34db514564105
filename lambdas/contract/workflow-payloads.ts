import type { ImportRequest, ResolvedRequest, WriteMode } from './import-request.js';
import type { TableSafety } from './table-safety.js';
import type { MirrorState, MirrorSummary } from './mirror-payloads.js';
import type { ImportCounts, ChunkResultArray } from './chunk-counts.js';
import type { KeyAttribute } from './key-attribute.js';

// The counts, chunk results and key attributes live apart so mirror-payloads.ts can use them without importing this
// file (which imports it): importers of this file keep reading them here.
export * from './chunk-counts.js';
export type { KeyAttribute } from './key-attribute.js';

/**
 * A range [start, end) of one object's data. Offsets count the object's bytes; for a compressed object, its
 * decompressed bytes:
 * - a plain object's chunk is a byte range cut from the object's size alone (preflight reads no more than the
 *   header), read with range GETs. Only its first chunk starts on a record boundary (the data start, with its
 *   `line`); every other chunk (no `line`) owns the records that *start* in [start, end): its lane finds the first
 *   one (source/record-start.ts) and reads past `end` to finish its last one, so neighbours agree on every boundary;
 * - a staged object (a big compressed one, see SourceEntry.staged) is cut by preflight into plain pieces
 *   stored under SourceSet.staging; its chunk [start, end) is one piece, named by its start;
 * - any other compressed object is one chunk, decompressed by the import from the start: `start` is where its
 *   data begins, and `end` is start + the object's compressed size (its decompressed size is unknown until
 *   read; the length stands for its share of the work, as in `maxWriteRate` shares).
 * - a Parquet object's chunk is one or more consecutive whole row groups: [start, end) is the byte range of their
 *   column chunks (its length, their compressed size, is its share of the work), the import takes the row groups
 *   that start in it, and `line` is the 1-based row number (in the file) of its first row.
 */
export interface Chunk {
  /** Index of the object in SourceSet.objects. */
  readonly object: number;
  readonly start: number;
  readonly end: number;
  /**
   * 1-based physical line number of the first record in the chunk, when preflight knows it (the chunk starts on a
   * record boundary; Parquet: the row number of its first row). Absent: the lane counts lines from 1 at its first
   * record, returns how many LFs its records hold (ChunkProgress.lines), and Summarize makes the lines of its rejects
   * absolute.
   */
  readonly line?: number;
}

/**
 * Where planning or a chunk import resumes: always a record boundary. In a Parquet chunk, `line` is the 1-based row
 * number of the next row and `offset` the start of its row group (read again whole; rows before `line` skipped).
 */
export interface Checkpoint {
  readonly offset: number;
  readonly line: number;
}

/**
 * Where planning resumes: the object it plans (an index into SourceSet.objects) and a record boundary in it. Offset
 * 0 means the object's start: its BOM and header come first.
 */
export interface PlanningCheckpoint extends Checkpoint {
  readonly object: number;
}

/** One object an import reads, as listed or headed: every GET of it sends `IfMatch: etag`. */
export interface SourceEntry {
  /** The key, less SourceSet.folder (the state carries each key's common folder once). */
  readonly key: string;
  readonly size: number;
  readonly etag: string;
  /** A big compressed object that preflight decompresses and stages as plain pieces (only set when true). */
  readonly staged?: true;
}

/**
 * The objects an import reads: the request's `key`, every importable object under its `prefix`, or the data
 * files a DynamoDB export's manifest lists. Carried in the workflow state (see preflight/state-size.ts for
 * its budget) and copied into every chunk's job.
 */
export interface SourceSet {
  /** The common folder of every key ("" when they share none); an object's key is folder + entry key. */
  readonly folder: string;
  readonly objects: SourceEntry[];
  /** Where staged pieces go: `<stagingPrefix>/<execution>`, or null when nothing is staged. */
  readonly staging: string | null;
  /** The export's manifest-summary.json when the request named a DynamoDB export, else null. */
  readonly exportManifest: string | null;
}

/** The execution, from the workflow's context object (`$$.Execution`, `$$.StateMachine`). */
export interface ExecutionContext {
  readonly id: string;
  readonly startTime: string;
  readonly stateMachineArn: string;
}

/** What the Preflight task receives: the raw request first, then its own previous output. */
export interface PreflightEvent {
  readonly input: ImportRequest | PlanningState;
  readonly executionName: string;
  readonly execution: ExecutionContext;
  /** The construct's maxConcurrency: the most chunks imported at once. */
  readonly maxConcurrency: number;
}

/**
 * Preflight's output: the resolved request, its objects and the chunks planned so far; the ScanComplete? Choice
 * loops back to Preflight until `scanComplete` (the key keeps its name for execution history and redrive).
 */
export interface PlanningState {
  readonly request: ResolvedRequest;
  readonly executionName: string;
  /** Size of all the objects together (compressed sizes for compressed ones); the ETag of the first. */
  readonly object: { readonly size: number; readonly etag: string };
  readonly sources: SourceSet;
  readonly columns: string[];
  readonly keys: KeyAttribute[];
  /** Each secondary index's key attribute names (TargetTable.indexes): a dry run counts the index writes. */
  readonly indexes: string[][];
  /** The chunk size actually used: chunkMiB, grown for huge objects to bound the chunk count. */
  readonly chunkBytes: number;
  /** Bytes of data records: the sum of the chunk lengths (the objects less their BOMs and headers). */
  readonly dataBytes: number;
  /**
   * The line of every object's first data record (past its header: the objects' headers agree, so they hold as
   * many LFs): Summarize numbers the lines of the chunks without `line` from it.
   */
  readonly dataLine: number;
  readonly chunks: Chunk[];
  readonly checkpoint: PlanningCheckpoint;
  /** Every object is planned into chunks. */
  readonly scanComplete: boolean;
  /** Whether this import waits for lanes (the workflow's WaitForLanes loop), once every object is planned. */
  readonly queue: QueueState;
  /** The Map's MaxConcurrency: the lanes the ledger granted (0 until then). */
  readonly lanes: Lanes;
  /** Point-in-time recovery and what the import could destroy (table-safety.ts); absent for `insert`. */
  readonly safety?: TableSafety;
}

/** What every chunk import shares, copied into each Map item by the ItemSelector. */
export interface ImportJob {
  readonly request: ResolvedRequest;
  readonly executionName: string;
  /** The first object's ETag (PlanningState.object.etag); each chunk's object carries its own. */
  readonly etag: string;
  readonly sources: SourceSet;
  readonly columns: string[];
  readonly keys: KeyAttribute[];
  /**
   * Each secondary index's key attribute names (PlanningState.indexes; the ImportChunks ItemSelector always copies
   * it): a dry run counts the index writes.
   */
  readonly indexes?: string[][];
  /**
   * The lanes the ledger granted this import (the Map's MaxConcurrencyPath, `$.lanes.granted`): how many of its
   * chunks run at once. The key keeps its name: the ImportChunks ItemSelector writes it into every chunk's input,
   * which execution history and redrive keep.
   */
  readonly maxConcurrency: number;
  /**
   * The lanes the import was admitted with (`$.lanes`, which the ImportChunks ItemSelector copies): a chunk whose
   * import holds no lanes (a redrive after ReleaseLanes gave them back) asks the ledger for them again before it
   * writes (import/chunk-admission.ts). Absent only for a chunk invoked outside the workflow (the bench), which runs
   * without the ledger.
   */
  readonly lanes?: Lanes;
  readonly chunkCount: number;
  readonly dataBytes: number;
  /** The state machine's name (`$$.StateMachine.Name`): the dimension of the import's metrics. */
  readonly stateMachine?: string;
}

/** The ImportChunk task's result, stored at $.progress; `next` is null once the chunk is done. */
export interface ChunkProgress extends ImportCounts {
  readonly next: Checkpoint | null;
  /**
   * A chunk without `line` (a plain object's byte range): the LFs its records hold so far (from its first record's
   * line to the line after its last), so Summarize can number its lines from its predecessors' counts. Absent
   * for other chunks, so their Map results stay small (the ChunkImported? Choice).
   */
  readonly lines?: number;
  /**
   * The import is paused (`s3-ddb-import pause`): the chunk holds its checkpoint in `next`, and the workflow's
   * PausedWait waits this many seconds before ImportChunk asks again. Absent when not paused.
   */
  readonly pausedWaitSeconds?: number;
}

/** The ImportChunk task's input: one Map item, plus the previous progress when looping. */
export interface ImportChunkEvent {
  readonly job: ImportJob;
  readonly chunk: Chunk;
  readonly chunkIndex: number;
  readonly progress?: ChunkProgress;
}

/** The Summarize task's input. */
export interface SummarizeEvent {
  readonly request: ResolvedRequest;
  readonly executionName: string;
  readonly object: { readonly size: number; readonly etag: string };
  /** The Map's results: ChunkImported's arrays. */
  readonly chunkResults: ChunkResultArray[];
  /** The chunk list and the objects: the report totals rows per object (a result's chunk indexes chunks). */
  readonly chunks: Chunk[];
  readonly sources: SourceSet;
  /** PlanningState.dataLine. @default 1 */
  readonly dataLine?: number;
  /** What a mirror found and deleted ({} when the import is no mirror). @default - no mirror */
  readonly mirror?: MirrorState;
}

/**
 * The ReleaseLanes task's input (the workflow's Catch of a failed Map): the failed import's execution name, whose
 * lanes go back to the ledger. It runs on the Summarize function, which tells the two events apart by this key.
 */
export interface ReleaseLanesEvent {
  readonly releaseLanes: string;
}

/** The ReleaseLanes task's result. */
export interface ReleasedLanes {
  readonly released: string;
}

/** The execution output, shown in the console and printed by the CLI. */
export interface ImportSummary extends ImportCounts {
  readonly status: 'SUCCEEDED' | 'SUCCEEDED_WITH_REJECTS';
  /** What the import did with the items (the request's mode). */
  readonly mode: WriteMode;
  /** The import wrote nothing: its counts say what it would have done. */
  readonly dryRun: boolean;
  readonly bucket: string;
  /** The request's key, or its prefix for a prefix request. */
  readonly key: string;
  /** The request's prefix, or null for a one-key request. */
  readonly prefix: string | null;
  /** How many objects were imported. */
  readonly objects: number;
  readonly table: string;
  readonly chunks: number;
  /** Prefix under which rejects/<chunk>.csv files lie (only when rows were rejected). */
  readonly rejectsKey: string | null;
  readonly reportKey: string;
  /**
   * The bucket `rejectsKey` and `reportKey` are in: the stack's bucket, which is also `bucket` unless the request read
   * one of the stack's other `sources`. Absent from summaries of versions before it (then: `bucket`).
   */
  readonly outputBucket?: string;

  /**
   * Prefix under which a dry run's diff files lie (`<execution folder>/diff/`, JSON Lines of what it would add,
   * change or delete: sync-compare/diff-lines.ts); present only for a dry run that found a difference.
   */
  readonly diffKey?: string;
  /** A mirror's facts (its deletes are in `deleted` too); absent when the import is no mirror. */
  readonly mirror?: MirrorSummary;
}

/** Where rejects and the report of one execution go: s3://<bucket>/<rejectsPrefix>/<execution>/... */
export function executionOutputPrefix(rejectsPrefix: string, executionName: string): string {
  return `${rejectsPrefix.replace(/\/+$/, '')}/${executionName}`;
}

/** How many chunks the Map imports at once, and why: shown in the preflight output and the console. */
export interface Lanes {
  /** The construct's maxConcurrency (the ASL's MaxConcurrency substitution). */
  readonly configured: number;
  /** What the Map uses: what the ledger granted (at most the chunks, the table's free lanes, the free Lambda lanes). */
  readonly granted: number;
  readonly reason: string;
  /**
   * The lanes all imports may hold at once when it was admitted (admission/lane-admission.ts `poolLanes`): a chunk
   * that finds its import holding no lanes asks again within the same bound (import/chunk-admission.ts).
   * @default - no bound: not admitted yet, no chunks, or a local run
   */
  readonly pool?: number | null;
}

/**
 * Waiting for lanes: all imports together hold at most the Lambda concurrency free for them, the imports into one
 * table at most its lanes, and an import with a maxWriteRate has its table to itself (admission/lane-admission.ts).
 * A waiting import asks the ledger again after `waitSeconds`, each wait twice the last up to a cap.
 */
export interface QueueState {
  readonly waiting: boolean;
  /** What it waits for, in words (the ledger's reason), or null when not waiting. */
  readonly reason: string | null;
  /** How long the Wait state waits before preflight asks again. */
  readonly waitSeconds: number;
  /** Seconds waited so far in all. */
  readonly waitedSeconds: number;
}
