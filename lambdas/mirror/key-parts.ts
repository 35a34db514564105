import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import { checkDynamoNumber } from '../attribute-values/dynamo-number.js';

/**
 * Where a mirror's keys meet: the file's keys (each chunk's) and the table's (each Scan segment's) are written to S3
 * split by a hash of the key into the same `parts`, so one part's file keys and table keys can be compared alone,
 * and no function ever holds all keys.
 */

/** A DynamoDB key: its attributes' values (B as bytes from the SDK, or base64 text from a key line). */
export type TableKey = Record<string, AttributeValue>;

/**
 * The least number of parts: even a small import spreads its keys so every part's code path runs (and a test can
 * hold a key in every part).
 */
export const MIN_PARTS = 16;
/**
 * File bytes per file-side part (the parts a chunk records its keys in, fixed before the table is read): 32 MiB of
 * 100-byte rows is ~335,000 keys; the compare keeps only the keys of its own part of those (mirrorPlanParts).
 */
export const PART_FILE_BYTES = 32 * 1024 * 1024;
/**
 * The bound on one part's keys, table side: a part's compare holds its file keys and its table keys not in the file
 * in two Sets, ~100 bytes a key in V8, so 50,000 keys is ~5 MB each, whatever the table's size (up to
 * MAX_PARTS x PART_KEYS = 50M items; past that a part holds ItemCount / 1,000, 1M keys at a billion: ~200 MB,
 * inside the 1,024 MB function).
 */
export const PART_KEYS = 50_000;
/** Parts at most: the Map over parts stays far below Step Functions' 256 KiB state (1,000 x ~30-byte results). */
export const MAX_PARTS = 1000;

/** Scan segments at least, and the table bytes each segment reads. */
export const MIN_SEGMENTS = 4;
/** 1 GiB a segment: a Scan reads ~1 MB a page, so a segment is ~1,000 pages, a few invocations at most. */
export const SEGMENT_TABLE_BYTES = 1024 * 1024 * 1024;
/** DynamoDB's TotalSegments takes at most 1,000,000; a Map over segments stays small far below that. */
export const MAX_SEGMENTS = 1000;

/** The number of file-side key parts of a mirror whose file holds `dataBytes` of records (every chunk uses it). */
export function mirrorParts(dataBytes: number): number {
  return Math.min(MAX_PARTS, Math.max(MIN_PARTS, Math.ceil(dataBytes / PART_FILE_BYTES)));
}

/** What DescribeTable tells of the table's size (updated by DynamoDB about every six hours). */
export interface TableSize {
  readonly itemCount: number;
  readonly sizeBytes: number;
}

/**
 * The parts the compare and the Scan use: the file-side parts times the least whole factor that keeps a part at
 * PART_KEYS of the table's items, at most MAX_PARTS. A multiple, so part `p` finds its file keys in file-side part
 * `p % fileParts` (the keys of both hash to `p` modulo the multiple, hence to `p % fileParts` modulo its divisor).
 *
 * @example
 * mirrorPlanParts(16, { itemCount: 1_000_000, sizeBytes: 0 }); // 32: 16 x 2, 31,250 items a part
 */
export function mirrorPlanParts(fileParts: number, table: TableSize): number {
  const wanted = Math.ceil(table.itemCount / PART_KEYS);
  const factor = Math.max(1, Math.min(Math.floor(MAX_PARTS / fileParts), Math.ceil(wanted / fileParts)));
  return fileParts * factor;
}

/** The Scan's TotalSegments: from the table's size, or the file's when the table is smaller (a first mirror). */
export function mirrorSegments(dataBytes: number, tableBytes = 0): number {
  const bytes = Math.max(dataBytes, tableBytes);
  return Math.min(MAX_SEGMENTS, Math.max(MIN_SEGMENTS, Math.ceil(bytes / SEGMENT_TABLE_BYTES)));
}

/**
 * A key as text that is equal for equal keys: the key attributes' values in schema order, numbers canonical
 * (`1.0` and `1` are one key, as in DynamoDB), binaries as base64, as a JSON array.
 *
 * @example
 * canonicalKey({ pk: { S: 'a' }, n: { N: '1.0' } }, keys); // '["a","1e0"]'
 */
export function canonicalKey(key: TableKey, keys: readonly KeyAttribute[]): string {
  return JSON.stringify(keys.map(({ name, type }) => canonicalValue(key[name], type, name)));
}

function canonicalValue(value: AttributeValue | undefined, type: KeyAttribute['type'], name: string): string {
  if (type === 'S' && value?.S !== undefined) return value.S;
  if (type === 'N' && value?.N !== undefined) {
    const check = checkDynamoNumber(value.N);
    return check.ok ? check.canonical : value.N;
  }
  if (type === 'B' && value?.B !== undefined) return base64(value.B);
  throw new Error(`key attribute ${name} is not of type ${type}: ${JSON.stringify(value)}`);
}

function base64(bytes: Uint8Array | string): string {
  return typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('base64');
}

/** The part a canonical key falls in: FNV-1a (32-bit) of its UTF-8 bytes, modulo `parts`. */
export function partOf(canonical: string, parts: number): number {
  let hash = 0x811c9dc5; // FNV-1a's 32-bit offset basis
  for (const byte of Buffer.from(canonical, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0; // FNV's 32-bit prime
  }
  return hash % parts;
}

/** A table key as one JSON line: DynamoDB JSON, B as base64 (how a diff line and a key-part line write it). */
export function keyJson(
  key: TableKey,
  keys: readonly KeyAttribute[],
): Record<string, { S?: string; N?: string; B?: string }> {
  const out: Record<string, { S?: string; N?: string; B?: string }> = {};
  for (const { name, type } of keys) {
    const value = key[name] as (typeof key)[string] | undefined;
    out[name] = type === 'B' && value?.B !== undefined ? { B: base64(value.B) } : (value as { S?: string; N?: string });
  }
  return out;
}

/** A key line read back as the SDK's key (B as bytes), for a DeleteRequest. */
export function keyFromJson(json: Record<string, { S?: string; N?: string; B?: string }>): TableKey {
  const key: TableKey = {};
  for (const [name, value] of Object.entries(json)) {
    key[name] = value.B !== undefined ? { B: Buffer.from(value.B, 'base64') } : (value as AttributeValue);
  }
  return key;
}

/** Zero-padded so a listing's order is the number's. */
export function pad(n: number): string {
  return String(n).padStart(6, '0');
}

/** Where one execution's mirror keeps its key parts and its delete lists (under its rejects prefix). */
export interface MirrorPaths {
  /** Folder of the file's keys of part `part`: one object per chunk invocation. */
  fileKeys(part: number): string;
  /** Folder of the table's keys of part `part`: one object per Scan invocation. */
  tableKeys(part: number): string;
  /** The delete list of part `part`: diff lines `{"op":"delete","key":{...},"attributes":[]}`. */
  deletes(part: number): string;
  /** The folder of every key part, file and table side (MirrorDropKeyParts deletes it; the delete lists stay). */
  readonly keyParts: string;
}

/** The mirror's objects under `outputPrefix` (contract executionOutputPrefix: next to the rejects and report). */
export function mirrorPaths(outputPrefix: string): MirrorPaths {
  return {
    fileKeys: (part) => `${outputPrefix}/mirror/file-keys/part-${pad(part)}/`,
    tableKeys: (part) => `${outputPrefix}/mirror/table-keys/part-${pad(part)}/`,
    deletes: (part) => `${outputPrefix}/diff/mirror-deletes-${pad(part)}.jsonl`,
    keyParts: `${outputPrefix}/mirror/`,
  };
}
