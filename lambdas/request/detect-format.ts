import type { Compression, FormatType } from '../contract/import-request.js';

/** What a key's name says about its object. */
export interface DetectedFormat {
  readonly type: FormatType;
  readonly compression: Compression;
  /** The CSV delimiter the extension implies: a tab for *.tsv and *.tab; absent otherwise. */
  readonly delimiter?: string;
}

/** Compression suffixes, stripped before the format's own extension is read. */
const COMPRESSION_SUFFIXES: ReadonlyArray<readonly [string, Compression]> = [
  ['.gz', 'gzip'],
  ['.gzip', 'gzip'],
  ['.zst', 'zstd'],
  ['.zstd', 'zstd'],
];

/**
 * `.json` means DynamoDB JSON: a DynamoDB table export names its data files `<id>.json.gz`
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html). JSON Lines of
 * plain objects (Spark's and Glue's `.json` part files among them) are `.jsonl` or `.ndjson`, or need
 * `format.type: "jsonl"`.
 */
const FORMAT_EXTENSIONS: ReadonlyArray<readonly [string, FormatType, string?]> = [
  ['.csv', 'csv'],
  ['.tsv', 'csv', '\t'],
  ['.tab', 'csv', '\t'],
  ['.jsonl', 'jsonl'],
  ['.ndjson', 'jsonl'],
  ['.json', 'dynamodb-json'],
  // A DynamoDB export in ION names its data files `<id>.ion.gz`; DynamoDB's import reads the same lines.
  ['.ion', 'dynamodb-ion'],
  // Spark and Glue name part files `part-00000-<uuid>-c000.snappy.parquet`: the codec sits inside the file.
  ['.parquet', 'parquet'],
];

/** The 4 bytes a Parquet file starts (and ends) with (https://parquet.apache.org/docs/file-format/). */
export const PARQUET_MAGIC = 'PAR1';

/** Whether the key's extensions name a format (else it is read as CSV, unless its first bytes say Parquet). */
export function namesFormat(key: string): boolean {
  const name = key.slice(key.lastIndexOf('/') + 1).toLowerCase();
  const suffix = COMPRESSION_SUFFIXES.find(([ext]) => name.endsWith(ext));
  const bare = suffix ? name.slice(0, -suffix[0].length) : name;
  return FORMAT_EXTENSIONS.some(([ext]) => bare.endsWith(ext));
}

/**
 * The format and compression a key's extensions name, case-insensitively: `data.tsv.gz` is gzip'd CSV with
 * tabs, `AWSDynamoDB/<id>/data/x.json.gz` gzip'd DynamoDB JSON, `part-0001.zst` zstd CSV. A key without a
 * known extension is read as plain CSV with commas.
 */
export function detectFormat(key: string): DetectedFormat {
  let name = key.slice(key.lastIndexOf('/') + 1).toLowerCase();
  let compression: Compression = 'none';
  const suffix = COMPRESSION_SUFFIXES.find(([ext]) => name.endsWith(ext));
  if (suffix) {
    compression = suffix[1];
    name = name.slice(0, -suffix[0].length);
  }
  const match = FORMAT_EXTENSIONS.find(([ext]) => name.endsWith(ext));
  if (!match) return { type: 'csv', compression };
  const [, type, delimiter] = match;
  return delimiter === undefined ? { type, compression } : { type, compression, delimiter };
}
