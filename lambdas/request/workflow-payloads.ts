import type { ImportRequest, ResolvedRequest } from './import-request.js';
import type { QueueState } from '../preflight/import-queue.js';
import type { Lanes } from '../preflight/lanes.js';

/** A table key attribute as DescribeTable reports it. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N' | 'B';
  readonly role: 'HASH' | 'RANGE';
}

/** A byte range [start, end) of the object that starts and ends on record boundaries. */
export interface Chunk {
  readonly start: number;
  readonly end: number;
  /** 1-based physical line number of the first record in the chunk. */
  readonly line: number;
}

/** Where a scan or a chunk import resumes: always a record boundary. */
export interface Checkpoint {
  readonly offset: number;
  readonly line: number;
}

/** Preflight's checkpoint carries the quote state; at a record boundary it is always false. */
export interface ScanCheckpoint extends Checkpoint {
  readonly inQuotes: false;
}

/** The execution, from the workflow's context object (`$$.Execution`, `$$.StateMachine`). */
export interface ExecutionContext {
  readonly id: string;
  readonly startTime: string;
  readonly stateMachineArn: string;
}

/** What the Preflight task receives: the raw request first, then its own previous output. */
export interface PreflightEvent {
  readonly input: ImportRequest | ScanState;
  readonly executionName: string;
  readonly execution: ExecutionContext;
  /** The construct's maxConcurrency: the most chunks imported at once. */
  readonly maxConcurrency: number;
}

/** Preflight's output; the Choice loops back to Preflight until `scanComplete`. */
export interface ScanState {
  readonly request: ResolvedRequest;
  readonly executionName: string;
  readonly object: { readonly size: number; readonly etag: string };
  readonly columns: string[];
  readonly keys: KeyAttribute[];
  /** The chunk size actually used: chunkMiB, grown for huge objects to bound the chunk count. */
  readonly chunkBytes: number;
  /** Bytes of data records: the object less its BOM and header. */
  readonly dataBytes: number;
  readonly chunks: Chunk[];
  readonly checkpoint: ScanCheckpoint;
  readonly scanComplete: boolean;
  /** Whether this import waits for an earlier one into the same table (the workflow's Wait loop). */
  readonly queue: QueueState;
  /** The Map's MaxConcurrency, fitted to the account's Lambda concurrency once the import may start. */
  readonly lanes: Lanes;
}

/** What every chunk import shares, copied into each Map item by the ItemSelector. */
export interface ImportJob {
  readonly request: ResolvedRequest;
  readonly executionName: string;
  readonly etag: string;
  readonly columns: string[];
  readonly keys: KeyAttribute[];
  /** The Map's MaxConcurrency and the number of chunks: how many imports can run at once. */
  readonly maxConcurrency: number;
  readonly chunkCount: number;
  readonly dataBytes: number;
  /** The state machine's name (`$$.StateMachine.Name`): the dimension of the import's metrics. */
  readonly stateMachine?: string;
}

/** Counts a chunk import returns; added up over checkpoint loops and then over chunks. */
export interface ImportCounts {
  /** Data records read. */
  readonly rows: number;
  /** Items written to the table (rows minus rejected minus keys repeated inside a batch). */
  readonly written: number;
  /** Rows written to the rejects file. */
  readonly rejected: number;
}

/** The ImportChunk task's result, stored at $.progress; `next` is null once the chunk is done. */
export interface ChunkProgress extends ImportCounts {
  readonly next: Checkpoint | null;
}

/** The ImportChunk task's input: one Map item, plus the previous progress when looping. */
export interface ImportChunkEvent {
  readonly job: ImportJob;
  readonly chunk: Chunk;
  readonly chunkIndex: number;
  readonly progress?: ChunkProgress;
}

/** One Map result (the ChunkImported Pass state keeps only these). */
export interface ChunkResult extends ImportCounts {
  readonly chunk: number;
}

/** The Summarize task's input. */
export interface SummarizeEvent {
  readonly request: ResolvedRequest;
  readonly executionName: string;
  readonly object: { readonly size: number; readonly etag: string };
  readonly chunkResults: ChunkResult[];
}

/** The execution output, shown in the console and printed by the CLI. */
export interface ImportSummary extends ImportCounts {
  readonly status: 'SUCCEEDED' | 'SUCCEEDED_WITH_REJECTS';
  readonly bucket: string;
  readonly key: string;
  readonly table: string;
  readonly chunks: number;
  /** Prefix under which rejects/<chunk>.csv files lie (only when rows were rejected). */
  readonly rejectsKey: string | null;
  readonly reportKey: string;
}

/** Where rejects and the report of one execution go: s3://<bucket>/<rejectsPrefix>/<execution>/... */
export function executionOutputPrefix(rejectsPrefix: string, executionName: string): string {
  return `${rejectsPrefix.replace(/\/+$/, '')}/${executionName}`;
}
