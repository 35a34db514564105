import { planChunks } from './chunk-planner.js';
import { resolveColumns } from './columns.js';
import { NOT_QUEUED, queuePosition } from './import-queue.js';
import { grantLanes } from './lanes.js';
import { checkStateSize } from './state-size.js';
import { InvalidRequestError } from '../runtime/errors.js';
import type { ControlPlane } from '../runtime/control-plane.js';
import { createRecordFormat } from '../formats/record-formats.js';
import { resolveImportRequest } from '../request/import-request.js';
import type { ReadFrom, SourceObject } from '../source/source-object.js';
import type { KeyAttribute, PreflightEvent, ScanState } from '../request/workflow-payloads.js';

const MIB = 1024 * 1024;
/**
 * At most 1,000 chunks: their list stays under 60 KB of the 256 KB state limit (about 56 bytes a chunk), and
 * each chunk is one child execution of the Distributed Map, which costs the parent history nothing per
 * chunk (see lambdas/runtime/limits.ts for the history arithmetic).
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
  /** Running imports and the Lambda concurrency; see runtime/control-plane.ts. */
  readonly control: ControlPlane;
  /** The first wait when queued behind another import. @default QUEUE_FIRST_WAIT_SECONDS */
  readonly queueFirstWaitSeconds?: number;
}

/** One Preflight invocation: starts the scan on the first call, then continues it from the checkpoint. */
export async function runPreflight(event: PreflightEvent, io: PreflightIo, options: PreflightOptions): Promise<ScanState> {
  const started = isScanState(event.input) ? event.input : await startScan(event, io, options);
  if (started.scanComplete) return started;
  const state = started.lanes.granted > 0 ? started : await admit(started, event, options);
  if (state.queue.waiting) return state;
  const { request, object } = state;
  const result = await planChunks({
    dialect: createRecordFormat(request.format).dialect,
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
  const { header, dataStart, dataLine } = await createRecordFormat(request.format).readStart(read, object.size, keys);
  const columns = resolveColumns(request, header, keys, dataStart < object.size || header !== null);
  const chunkBytes = Math.max(1, Math.round(request.chunkMiB * MIB), Math.ceil((object.size - dataStart) / MAX_CHUNKS));
  const state: ScanState = {
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
    queue: NOT_QUEUED,
    // 0 until admitted: the lanes are fitted to the Lambda concurrency free when the import may start.
    lanes: { configured: event.maxConcurrency, granted: 0, reason: 'not yet admitted' },
  };
  checkStateSize(state);
  return state;
}

/**
 * Lets the import start once no earlier import into its table is running (else it waits: import-queue.ts),
 * and fits its lanes to the Lambda concurrency free then.
 */
async function admit(state: ScanState, event: PreflightEvent, options: PreflightOptions): Promise<ScanState> {
  const running = await options.control.runningImports(event.execution.stateMachineArn, event.execution);
  const queue = queuePosition(event.execution, state.request.table, running, state.queue, options.queueFirstWaitSeconds);
  if (queue.waiting) return { ...state, queue };
  return { ...state, queue, lanes: grantLanes(event.maxConcurrency, await options.control.importConcurrency()) };
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
