import { chunkBudget, isStaged, MAX_CHUNKS } from './chunk-budget.js';
import { checkComputedAttributes, knownNames } from './attribute-check.js';
import { resolveColumns } from './columns.js';
import { admitted, NOT_QUEUED, waitAgain } from './import-queue.js';
import { poolLanes } from './lanes.js';
import { checkHeadersAgree, HEADER_READS_AT_ONCE, readObjectStart } from './object-headers.js';
import { mapAtMost } from '../async/map-at-most.js';
import { scanObjects, type ScanIo } from './object-scan.js';
import { withExportFormat } from './export-format.js';
import { resolveSources, type SourceIo } from './source-resolution.js';
import { checkStateSize } from './state-size.js';
import { withSniffedFormat } from './format-sniff.js';
import { parquetColumns } from './parquet-objects.js';
import { checkTableSafety, type TableSafetyIo } from './table-safety.js';
import { warmThroughputToSet, type TargetTable, type WarmThroughputIo } from './warm-throughput.js';
import type { ConcurrencySource } from '../admission/import-concurrency.js';
import type { ImportLedger } from '../admission/ledger.js';
import { DEFAULT_REJECTS_PREFIX, DEFAULT_STAGING_PREFIX } from '../environment/config.js';
import { checkDeploymentScope } from '../request/deployment-scope.js';
import { resolveImportRequest } from '../request/resolve-request.js';
import { WRITE_MODE_TABLE, type WriteModeTable } from '../write/write-modes.js';
import type { ImportRequest, ResolvedRequest } from '../contract/import-request.js';
import { formatTraits } from '../contract/format-traits.js';
import { checkDecompressible, compressionOf, withoutCompressionSuffix } from '../source/compression.js';
import { objectData } from '../source/object-data.js';
import { objectKey, s3Url, sourceObject } from '../source/source-set.js';
import type { KeyAttribute, PreflightEvent, ScanState, SourceSet } from '../contract/workflow-payloads.js';

export { MAX_CHUNKS };

const MIB = 1024 * 1024;

/** The I/O preflight needs, passed in so tests drive it against real servers without patching. */
export interface PreflightIo extends SourceIo, ScanIo, WarmThroughputIo, TableSafetyIo {
  describeTable(table: string): Promise<TargetTable>;
}

export interface PreflightOptions {
  readonly allowedTables: readonly string[] | null;
  /** The stack's bucket: a request for another fails before any S3 call. @default null - unchecked (local runs) */
  readonly bucketName?: string | null;
  readonly shouldStop: () => boolean;
  /** The Lambda concurrency the imports share; see admission/import-concurrency.ts. */
  readonly control: ConcurrencySource;
  /** Who holds lanes now (admission/ledger.ts). */
  readonly ledger: Pick<ImportLedger, 'admit'>;
  /** The first wait for lanes. @default QUEUE_FIRST_WAIT_SECONDS */
  readonly queueFirstWaitSeconds?: number;
  /** The pipeline's own output, never imported from a prefix. @default DEFAULT_REJECTS_PREFIX */
  readonly rejectsPrefix?: string;
  /** Where big compressed objects are staged. @default DEFAULT_STAGING_PREFIX */
  readonly stagingPrefix?: string;
  /** The import function's memory in MB: a Parquet row group too big for it fails. @default DEFAULT_IMPORT_MEMORY_MB */
  readonly importMemoryMb?: number;
  /** May a request's warmThroughput raise the table's (LambdaConfig.warmThroughputAllowed)? @default true */
  readonly warmThroughputAllowed?: boolean;
  /** The write modes a request's `mode` may name (the wiring's). @default WRITE_MODE_TABLE */
  readonly writeModes?: WriteModeTable;
}

/** One Preflight invocation: starts the scan on the first call, then continues it from the checkpoint. */
export async function runPreflight(
  event: PreflightEvent,
  io: PreflightIo,
  options: PreflightOptions,
): Promise<ScanState> {
  const started = isScanState(event.input) ? event.input : await startScan(event, io, options);
  const scanned = started.scanComplete ? started : await continueScan(started, io, options);
  // Lanes are asked for once the chunks are known: an import holds no more lanes than it has chunks.
  return scanned.scanComplete ? admit(scanned, event, options) : scanned;
}

/** Scans on from the checkpoint until the objects end or the invocation must stop. */
async function continueScan(state: ScanState, io: PreflightIo, options: PreflightOptions): Promise<ScanState> {
  const { request, sources } = state;
  const result = await scanObjects({
    request,
    sources,
    budget: budgetOf(request, sources),
    from: state.checkpoint,
    earlier: state.chunks,
    io,
    shouldStop: options.shouldStop,
    importMemoryMb: options.importMemoryMb,
  });
  const dataBytes = result.chunks.reduce((sum, chunk) => sum + (chunk.end - chunk.start), state.dataBytes);
  return {
    ...state,
    chunks: [...state.chunks, ...result.chunks],
    dataBytes,
    checkpoint: result.checkpoint,
    scanComplete: result.complete,
  };
}

function isScanState(input: PreflightEvent['input']): input is ScanState {
  return typeof input === 'object' && input !== null && 'checkpoint' in input && 'request' in input;
}

/** The chunk size and staged room, from the request and the objects (the same on every call). */
function budgetOf(request: ResolvedRequest, sources: SourceSet) {
  const objects = sources.objects.map((o) => ({
    size: o.size,
    compression: compressionOf(o.key, request.format.compression),
    staged: o.staged === true,
  }));
  return chunkBudget(request.chunkMiB * MIB, objects);
}

async function startScan(event: PreflightEvent, io: PreflightIo, options: PreflightOptions): Promise<ScanState> {
  const modeNames = Object.keys(options.writeModes ?? WRITE_MODE_TABLE);
  const asSent = resolveImportRequest(event.input, undefined, modeNames);
  checkDeploymentScope(asSent, options);
  const stagingPrefix = (options.stagingPrefix ?? DEFAULT_STAGING_PREFIX).replace(/\/+$/, '');
  const ownPrefixes = [options.rejectsPrefix ?? DEFAULT_REJECTS_PREFIX, stagingPrefix];
  // The safety check refuses an unprotected delete here, before any write or pre-warm (table-safety.ts).
  const [found, target, safety] = await Promise.all([
    resolveSources(asSent, io, ownPrefixes),
    io.describeTable(asSent.table),
    checkTableSafety(asSent, io, options.writeModes),
  ]);
  const { keys } = target;
  // Refuses a provisioned table, and a raise the deployment does not allow.
  const warmTo = warmThroughputToSet(asSent.table, asSent.warmThroughput, target, options.warmThroughputAllowed);
  // Format defaults (a tab for .tsv) follow the first object's name, less its compression suffix.
  const formatKey = withoutCompressionSuffix(objectKey(found.sources, 0));
  const input = await withSniffedFormat(event.input as ImportRequest, found.sources, formatKey, io);
  const request: ResolvedRequest = {
    ...resolveImportRequest(withExportFormat(input, found.exportFormat), formatKey, modeNames),
    ...(asSent.key ? { key: found.request.key } : {}),
  };
  const sources = markStaged(found.sources, request, `${stagingPrefix}/${event.executionName}`);
  const { columns, dataLine } = await recordNames(request, sources, keys, io);
  const state: ScanState = {
    request,
    executionName: event.executionName,
    object: { size: sources.objects.reduce((sum, o) => sum + o.size, 0), etag: sources.objects[0].etag },
    sources,
    columns,
    keys,
    indexes: target.indexes,
    chunkBytes: budgetOf(request, sources).chunkBytes,
    dataBytes: 0,
    dataLine,
    chunks: [],
    checkpoint: { object: 0, offset: 0, line: 1, inQuotes: false },
    scanComplete: false,
    queue: NOT_QUEUED,
    // 0 until admitted: the ledger grants lanes once the scan is complete.
    lanes: { configured: event.maxConcurrency, granted: 0, reason: 'not yet admitted' },
    ...(safety ? { safety } : {}),
  };
  checkStateSize(state);
  // Once the request is known good, before the Map's first write (warm-throughput.ts).
  if (warmTo !== null) await io.raiseWarmThroughput(asSent.table, warmTo);
  return state;
}

/** Marks the compressed objects big enough to stage (chunk-budget.ts), and names their staging folder. */
function markStaged(sources: SourceSet, request: ResolvedRequest, staging: string): SourceSet {
  const chunkBytes = request.chunkMiB * MIB;
  const objects = sources.objects.map((o, index) => {
    const compression = compressionOf(o.key, request.format.compression);
    checkDecompressible(compression, s3Url(request.bucket, objectKey(sources, index)));
    return isStaged(compression, o.size, chunkBytes) ? { ...o, staged: true as const } : o;
  });
  return { ...sources, objects, staging: objects.some((o) => o.staged) ? staging : null };
}

/**
 * The columns records are read with, after `attributes` and `exclude` are checked against the names records hold:
 * a Parquet schema's columns (from every footer), else the CSV header or the JSON objects' first records.
 */
async function recordNames(request: ResolvedRequest, sources: SourceSet, keys: KeyAttribute[], io: PreflightIo) {
  if (formatTraits(request.format).layout === 'row-groups') {
    const columns = await parquetColumns(request, sources, keys, io);
    checkComputedAttributes(request, { names: columns, what: 'the Parquet columns' }, keys);
    return { columns, dataLine: 1 };
  }
  const header = await agreedHeader(request, sources, keys, io);
  const columns = resolveColumns(request, header.names, keys, header.anyContent);
  checkComputedAttributes(request, knownNames(request, columns, header.starts), keys);
  return { columns, dataLine: header.dataLine };
}

/**
 * Every object's header, read before any write (a few at a time), which must agree: the columns. `anyContent`:
 * some object holds a header or data (an import of only empty objects has no columns to check).
 */
async function agreedHeader(request: ResolvedRequest, sources: SourceSet, keys: KeyAttribute[], io: PreflightIo) {
  const starts = await mapAtMost(sources.objects, HEADER_READS_AT_ONCE, (entry, index) => {
    const where = s3Url(request.bucket, objectKey(sources, index));
    const compression = compressionOf(entry.key, request.format.compression);
    const read = objectData(io.readFrom(sourceObject(request.bucket, sources, index), entry.size), compression, where);
    return readObjectStart(request, read, entry.size, compression, keys);
  });
  const names = checkHeadersAgree(
    starts.map((start, index) => ({ key: objectKey(sources, index), header: start.header })),
  );
  const anyContent = starts.some((start) => start.hasData || start.header !== null);
  // The headers agree, so every object's data starts on the same line (Summarize numbers lanes' lines from it).
  return { names, starts, anyContent, dataLine: starts.find((start) => start.hasData)?.dataLine ?? 1 };
}

/**
 * Asks the ledger for lanes (admission/lane-admission.ts): at most the chunks, the table's free lanes and the
 * free Lambda lanes; none means wait and ask again (the workflow's WaitForLanes loop). An import with no chunks
 * (empty objects) needs no lanes: its Map has nothing to run.
 */
async function admit(state: ScanState, event: PreflightEvent, options: PreflightOptions): Promise<ScanState> {
  if (state.lanes.granted > 0) return state;
  const configured = event.maxConcurrency;
  if (state.chunks.length === 0) return { ...state, lanes: { configured, granted: 1, reason: 'no chunks to import' } };
  const pool = poolLanes(await options.control.importConcurrency());
  const { table, maxWriteRate } = state.request;
  const decision = await options.ledger.admit({
    execution: event.executionName,
    table,
    want: Math.min(configured, state.chunks.length),
    capped: maxWriteRate > 0,
    poolLanes: pool.lanes,
    tableLanes: configured,
    maxWriteRate,
  });
  if (decision.granted === 0) {
    return { ...state, queue: waitAgain(state.queue, decision.reason, options.queueFirstWaitSeconds) };
  }
  const reason = pool.lanes === null ? decision.reason : `${decision.reason}; Lambda lanes: ${pool.reason}`;
  return { ...state, queue: admitted(state.queue), lanes: { configured, granted: decision.granted, reason } };
}
