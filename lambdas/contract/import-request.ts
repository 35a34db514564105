import type { WriteMode } from './write-mode-traits.js';

/** The modes are the keys of the table of their traits (write-mode-traits.ts). */
export { WRITE_MODES, type WriteMode } from './write-mode-traits.js';

/**
 * The execution input: the request users send to StartExecution, the CLI builds and a watch's rule makes.
 * Types only, at the bottom of the layers, so every handler, format and the CLI can name them;
 * request/ checks a request and applies its defaults.
 */
/**
 * The formats a source object may be in: CSV/TSV, JSON Lines, DynamoDB JSON and DynamoDB Ion (each as a table
 * export writes it, one `Item` a line), Parquet (typed by its schema; compressed inside the file, page by page).
 */
export type FormatType = 'csv' | 'jsonl' | 'dynamodb-json' | 'dynamodb-ion' | 'parquet';
export const FORMAT_TYPES: readonly FormatType[] = ['csv', 'jsonl', 'dynamodb-json', 'dynamodb-ion', 'parquet'];

/** How a source object's bytes are compressed. */
export type Compression = 'none' | 'gzip' | 'zstd';
export const COMPRESSIONS: readonly Compression[] = ['none', 'gzip', 'zstd'];

/**
 * How a column's text becomes a DynamoDB attribute. Key attribute types come from the table. `TTL` reads an
 * ISO 8601 date-time with `Z` or an offset, or an integer of epoch seconds, and stores `N` epoch seconds (the
 * form DynamoDB's time to live reads).
 */
export type ColumnType = 'S' | 'N' | 'BOOL' | 'JSON' | 'TTL';
export const COLUMN_TYPES: readonly ColumnType[] = ['S', 'N', 'BOOL', 'JSON', 'TTL'];

/** The CSV/TSV dialect of the source object. */
export interface CsvFormat {
  /** One character. @default "\t" for *.tsv (and *.tab), "," otherwise */
  readonly delimiter?: string;
  /** The first record holds column names. @default true */
  readonly header?: boolean;
  /** Column names; required when `header` is false, renames the header's columns otherwise. */
  readonly columns?: string[];
  /** One character, or "" to turn quoting off (plain TSV). @default '"' */
  readonly quote?: string;
}

/** The source object's format: CSV's dialect fields apply to `type: "csv"` only. */
export interface RequestFormat extends CsvFormat {
  /** @default - from the key's extension (request/detect-format.ts); CSV when it names none */
  readonly type?: FormatType;
  /** @default - from the key's extension: `.gz` gzip, `.zst` zstd, else none */
  readonly compression?: Compression;
}

/** A CSV format with every default applied. */
export interface ResolvedCsvFormat extends Required<Omit<CsvFormat, 'columns'>> {
  readonly type: 'csv';
  readonly columns?: string[];
  readonly compression?: Compression;
}

/** JSON Lines, DynamoDB JSON or DynamoDB Ion: each record names its attributes and carries its types. */
export interface ResolvedJsonFormat {
  readonly type: 'jsonl' | 'dynamodb-json' | 'dynamodb-ion';
  readonly compression?: Compression;
  /** CSV's fields are absent, so code reading one gets undefined rather than a type error. */
  readonly delimiter?: undefined;
  readonly header?: undefined;
  readonly quote?: undefined;
  readonly columns?: undefined;
}

/** Parquet: the schema names and types the columns; its codecs work inside the file, so no `compression`. */
export interface ResolvedParquetFormat {
  readonly type: 'parquet';
  readonly compression?: undefined;
  readonly delimiter?: undefined;
  readonly header?: undefined;
  readonly quote?: undefined;
  readonly columns?: undefined;
}

export type ResolvedFormat = ResolvedCsvFormat | ResolvedJsonFormat | ResolvedParquetFormat;

/**
 * The execution input: what users send to StartExecution, the CLI builds and the EventBridge rule makes. The source
 * (`bucket` and `key` or `prefix`) is named here; everything else (table, format, mode, ...) is in `ImportOptions`.
 */
export interface ImportRequest extends ImportOptions {
  /** The bucket holding the source object(s). */
  readonly bucket: string;
  /** One object to import (or a DynamoDB export's manifest-summary.json). Exactly one of `key` and `prefix`. */
  readonly key?: string;
  /**
   * Every object under this key prefix, in key order (folder markers, `_`/`.` files and empty objects skipped),
   * or a DynamoDB export's folder. Exactly one of `key` and `prefix`.
   */
  readonly prefix?: string;
}

/**
 * The request's fields other than its source: where the items go and how records become them. A watched prefix
 * fixes these for every upload (lib/watch-input.ts); a plain interface rather than `Omit<ImportRequest, ...>`, so
 * jsii can copy its fields into the construct's `WatchedPrefix` for Python, Java, .NET and Go.
 */
export interface ImportOptions extends ImportSettings {
  /** The existing DynamoDB table the items are written to. */
  readonly table: string;
}

/**
 * Every request field other than the source and the table: how records become items and how they are written.
 * Its own interface because a construct's watch names its table either way (`PipelineWatch`), and jsii has no
 * `Omit<>`.
 */
export interface ImportSettings {
  readonly format?: RequestFormat;
  /** Column name to type; columns not named here are strings. */
  readonly types?: Record<string, ColumnType>;
  /** Target chunk size in MiB; preflight grows it for huge files to bound the chunk count. @default 64 */
  readonly chunkMiB?: number;
  /** Cap in items/s for the whole import; 0 = as fast as the table takes. @default 0 */
  readonly maxWriteRate?: number;
  /**
   * Reorder writes inside a chunk so a file sorted by partition key spreads over partitions, for the modes whose
   * writer does not do so itself (`insert`, `update`, `sync`). `put` and `delete` always spread their writes by
   * partition key (the partition window), so for them it changes nothing. @default false
   */
  readonly spread?: boolean;
  /**
   * Write units per second an on-demand table should take from the first write: preflight raises the table's warm
   * throughput to it (UpdateTable) when it is lower. Billed, and never lowered again (preflight/warm-throughput.ts).
   * @default - the table's warm throughput as it is
   */
  readonly warmThroughput?: number;
  /**
   * Attributes computed from each record: name to template, text with `{column}` placeholders (`"USER#{user_id}"`),
   * `{{` and `}}` for literal braces. Overrides a column of the same name; typed by `types` like a column.
   * @default - none
   */
  readonly attributes?: Record<string, string>;
  /** Columns not stored (they may still feed `attributes`). @default - none */
  readonly exclude?: string[];
  /** @default "put" */
  readonly mode?: WriteMode;
  /** Run everything but the writes: counts, rejects and the write units the import would consume. @default false */
  readonly dryRun?: boolean;
  /**
   * Let a `delete` import start on a table whose point-in-time recovery is off (without it, it refuses).
   * @default false
   */
  readonly allowWithoutBackup?: boolean;
  /**
   * `sync` reads each key's item with strongly consistent reads (BatchGetItem `ConsistentRead`): twice the read units,
   * and every write acknowledged before the read is seen. Other modes read nothing and ignore it.
   * @default false - eventually consistent reads
   */
  readonly consistentRead?: boolean;
  /**
   * The reject budget: a chunk that has rejected more than this many rows fails the import with
   * `TooManyRejectsError`, having written what it wrote (rejects kept). Counted per chunk: lanes share no counter,
   * so the import as a whole may keep up to this many rejects per chunk. A whole number, 0 or more (0: the first
   * rejected row fails it).
   * @default - no count limit, but a chunk whose first 1,000 rows are all rejected fails the import
   */
  readonly maxRejects?: number;
  /**
   * After the file's rows are applied (`mode: "sync"` only), delete every item of the table (or of `scope`) whose key
   * the file does not hold. Needs point-in-time recovery as `delete` does (or `allowWithoutBackup`), and stops before
   * its first delete when more than `maxDeletePercent` of the items in scope would go (lambdas/mirror/).
   * @default false
   */
  readonly mirror?: boolean;
  /** The items a mirror may delete. @default - every item of the table */
  readonly scope?: MirrorScope;
  /**
   * A mirror deletes nothing, and the import fails (MirrorDeleteLimitError), when it would delete more than this
   * percentage of the items in scope. 0 to 100. @default 10
   */
  readonly maxDeletePercent?: number;
}

/**
 * Which items of the table a mirror may delete: those whose partition key begins with `partitionKeyPrefix` (a Scan
 * filter `begins_with`, for single-table designs where the file holds one entity). The partition key must be S or B.
 *
 * @example
 * { "mode": "sync", "mirror": true, "scope": { "partitionKeyPrefix": "PRODUCT#" } }
 */
export interface MirrorScope {
  /** A non-empty prefix of the partition key (text; base64 for a B key). */
  readonly partitionKeyPrefix: string;
}

/** A request with every default applied: what the handlers work from after preflight. */
export interface ResolvedRequest {
  readonly bucket: string;
  /** Exactly one of `key` and `prefix` is set. */
  readonly key?: string;
  readonly prefix?: string;
  readonly table: string;
  readonly format: ResolvedFormat;
  readonly types: Record<string, ColumnType>;
  readonly chunkMiB: number;
  readonly maxWriteRate: number;
  readonly spread: boolean;
  /** Present only when the request asks for it. */
  readonly warmThroughput?: number;
  /** Present only when the request has some. */
  readonly attributes?: Record<string, string>;
  /** Present only when the request has some. */
  readonly exclude?: string[];
  readonly mode: WriteMode;
  readonly dryRun: boolean;
  /** Present (true) only when the request says so. */
  readonly allowWithoutBackup?: true;
  /** Present (true) only when the request says so. */
  readonly consistentRead?: true;
  /** Present only when the request sets it; absent, a chunk whose first 1,000 rows are all rejected fails. */
  readonly maxRejects?: number;
  /** Present (true) only for a mirror; then maxDeletePercent is set too. */
  readonly mirror?: true;
  /** Present only for a mirror with a scope. */
  readonly scope?: MirrorScope;
  /** Present only for a mirror: its default applied. */
  readonly maxDeletePercent?: number;
}
