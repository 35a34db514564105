import { planChunks } from './chunk-planner.js';
import { InvalidRequestError } from '../runtime/errors.js';
import { readHeader } from '../formats/csv/header.js';
import { scannerDialect } from '../source/record-scanner.js';
import { checkColumnNames, resolveImportRequest, type ResolvedRequest } from '../request/import-request.js';
import type { ReadFrom, SourceObject } from '../source/source-object.js';
import type { KeyAttribute, PreflightEvent, ScanState } from '../request/workflow-payloads.js';

const MIB = 1024 * 1024;
/**
 * At most 1,000 chunks: the Map input stays near 50 KB (under the 256 KB state limit) and the Map's
 * history near 12 events a chunk, 12,000 in all (under the 25,000-event limit) with room for loops.
 */
export const MAX_CHUNKS = 1000;

/** The I/O preflight needs, passed in so tests drive it against real servers without patching. */
export interface PreflightIo {
  headObject(bucket: string, key: string): Promise<{ size: number; etag: string }>;
  describeTable(table: string): Promise<KeyAttribute[]>;
  /** Streams the object from an offset to `size`, its end. */
  readFrom(source: SourceObject, size: number): ReadFrom;
}

export interface PreflightOptions {
  readonly allowedTables: readonly string[] | null;
  readonly shouldStop: () => boolean;
}

/** One Preflight invocation: starts the scan on the first call, then continues it from the checkpoint. */
export async function runPreflight(event: PreflightEvent, io: PreflightIo, options: PreflightOptions): Promise<ScanState> {
  const state = isScanState(event.input) ? event.input : await startScan(event, io, options);
  if (state.scanComplete) return state;
  const { request, object } = state;
  const result = await planChunks({
    dialect: scannerDialect(request.format),
    chunkBytes: state.chunkBytes,
    size: object.size,
    from: state.checkpoint,
    read: io.readFrom({ bucket: request.bucket, key: request.key, etag: object.etag }, object.size),
    shouldStop: options.shouldStop,
  });
  return { ...state, chunks: [...state.chunks, ...result.chunks], checkpoint: result.checkpoint, scanComplete: result.complete };
}

function isScanState(input: PreflightEvent['input']): input is ScanState {
  return typeof input === 'object' && input !== null && 'checkpoint' in input && 'request' in input;
}

async function startScan(event: PreflightEvent, io: PreflightIo, options: PreflightOptions): Promise<ScanState> {
  const asSent = resolveImportRequest(event.input);
  if (options.allowedTables && !options.allowedTables.includes(asSent.table)) {
    throw new InvalidRequestError([`table: ${JSON.stringify(asSent.table)} is not one this deployment may write (${options.allowedTables.join(', ')})`]);
  }
  const [{ object, key }, keys] = await Promise.all([headSourceObject(io, asSent.bucket, asSent.key), io.describeTable(asSent.table)]);
  const request = { ...asSent, key };
  const read = io.readFrom({ bucket: request.bucket, key: request.key, etag: object.etag }, object.size);
  const { header, dataStart, dataLine } = await readHeader(read, object.size, request.format, scannerDialect(request.format));
  const columns = resolveColumns(request, header, keys, dataStart < object.size || header !== null);
  const chunkBytes = Math.max(1, Math.round(request.chunkMiB * MIB), Math.ceil((object.size - dataStart) / MAX_CHUNKS));
  return {
    request,
    executionName: event.executionName,
    object,
    columns,
    keys,
    chunkBytes,
    dataBytes: object.size - dataStart,
    chunks: [],
    checkpoint: { offset: dataStart, line: dataLine, inQuotes: false },
    scanComplete: false,
  };
}

/**
 * HeadObject on the request's key, or on its URL-decoded form when the key is not found and looks
 * encoded: S3 event notifications URL-encode keys ("my file.csv" arrives as "my+file.csv"), and a
 * watched prefix builds the request from such an event. Tried only after a 404, so a key that really
 * holds "+" or "%" is found as it is.
 */
async function headSourceObject(io: PreflightIo, bucket: string, key: string) {
  try {
    return { object: await io.headObject(bucket, key), key };
  } catch (error) {
    const decoded = decodeEventKey(key);
    if ((error as Error).name !== 'SourceObjectNotFoundError' || decoded === key) throw error;
    return { object: await io.headObject(bucket, decoded).catch(() => Promise.reject(error)), key: decoded };
  }
}

function decodeEventKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key; // not valid percent-encoding: it was never encoded
  }
}

/**
 * The column names rows are read with: the header's, or format.columns (which rename the header's).
 * Checks them against the table's key and the declared types before any write happens.
 */
export function resolveColumns(request: ResolvedRequest, header: string[] | null, keys: KeyAttribute[], hasContent: boolean): string[] {
  const problems: string[] = [];
  const given = request.format.columns;
  if (header && given && given.length !== header.length) {
    problems.push(`format.columns: has ${given.length} names but the header has ${header.length} columns`);
  }
  if (header && !given) checkColumnNames(header, 'header', problems);
  if (problems.length > 0) throw new InvalidRequestError(problems.map((p) => (p.startsWith('header') ? `${p} (rename with format.columns)` : p)));
  const columns = given ?? header ?? [];
  if (!hasContent) return columns;
  for (const key of keys) {
    const declared = request.types[key.name];
    if (!columns.includes(key.name)) {
      problems.push(`columns: key attribute ${JSON.stringify(key.name)} (${key.role}, ${key.type}) is not among the columns [${columns.join(', ')}]`);
    } else if (declared && declared !== key.type) {
      problems.push(`types.${key.name}: declared ${declared} but the table's key is ${key.type}`);
    }
  }
  for (const name of Object.keys(request.types)) {
    if (!columns.includes(name)) problems.push(`types.${name}: no column named ${JSON.stringify(name)}`);
  }
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return columns;
}
