import type { Checkpoint, ChunkProgress, ImportChunkEvent, ImportCounts } from '../contract/workflow-payloads.js';
import { executionOutputPrefix } from '../contract/workflow-payloads.js';
import { deleteObject, sendGetObject } from '../wiring/aws-io.js';
import { DEFAULT_WRITE_CONFIG, type LambdaConfig, type WriteConfig } from '../environment/config.js';
import {
  fitStopMargin,
  stopDeadline,
  type LambdaContextLike,
  type StopDeadline,
} from '../environment/lambda-context.js';
import { createContainerLogger, invocationLogger, type Logger } from '../observability/logger.js';
import { createImportMetrics } from '../observability/metrics.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { corruptSourceError } from '../source/object-data.js';
import { importChunk, type ImportChunkParams, type ImportChunkResult } from './chunk-importer.js';
import { importParquetChunk } from './parquet-chunk-importer.js';
import { chunkReader, type ChunkReader } from './chunk-reader.js';
import { importMetricsPublisher } from './import-metrics.js';
import { chunkRate, chunkStopMarginMs, createImportSink } from './import-sink.js';
import { followLiveSettings, nextPausedWait } from './live-settings.js';
import type { RateLimiter } from '../write/rate-limiter.js';
import type { RejectedRow } from './rejects.js';
import { RejectsFile } from './rejects-file.js';
import { startStreamUpload } from '../wiring/s3-stream-upload.js';
import { chunkLines, laneFrom } from './lane-range.js';
import { createRecordFormat } from '../formats/record-formats.js';
import { relativeRejectsKey } from '../contract/relative-rejects.js';

/** When this invocation stops: the write path's margin (write/stop-margin.ts), fitted to the invocation. */
function importDeadline(
  { job, chunk }: ImportChunkEvent,
  write: WriteConfig,
  context: LambdaContextLike,
  log: Logger,
): StopDeadline {
  const requiredMs = chunkStopMarginMs(job, chunk, write);
  const { marginMs, fits } = fitStopMargin(requiredMs, context.getRemainingTimeInMillis());
  if (!fits) {
    log.warn('timeout too short for the write retry policy: a throttled batch may outlast it', {
      requiredMarginMs: requiredMs,
      marginMs,
      suggestedTimeoutMs: 2 * requiredMs,
    });
  }
  return stopDeadline(context, marginMs);
}

/**
 * Rejects of one invocation go to `<rejectsPrefix>/<execution>/<offset>.csv`, named by where the invocation
 * started; with several objects, `<object index>-<offset>.csv`, since offsets repeat across objects.
 */
function rejectsKey(rejectsPrefix: string, event: ImportChunkEvent, from: Checkpoint): string {
  const { job, chunk, chunkIndex } = event;
  // A Parquet checkpoint inside a row group keeps the group's offset: its row number tells invocations apart.
  const at = job.request.format.type === 'parquet' ? `${from.offset}-${from.line}` : `${from.offset}`;
  const name = job.sources.objects.length > 1 ? `${chunk.object}-${at}` : at;
  const folder = executionOutputPrefix(rejectsPrefix, job.executionName);
  // A chunk that found its own first record numbers lines from it: Summarize makes them absolute (relative-rejects.ts).
  return chunk.line === undefined ? relativeRejectsKey(folder, chunkIndex, name) : `${folder}/${name}.csv`;
}

/** Where a compressed object broke off, if it did: the last row of the invocation's rejects. */
function damageRow(reader: ChunkReader): RejectedRow | null {
  const damage = reader.damage();
  if (!damage) return null;
  const reason = `${reader.compression} data truncated or corrupt here (${damage.message}): the rest of the object was not read`;
  return { line: damage.line, offset: damage.offset, length: 0, raw: Buffer.alloc(0), reason };
}

const NO_COUNTS: ImportCounts = { rows: 0, written: 0, rejected: 0, skipped: 0, deleted: 0, writeUnits: 0 };

/**
 * Counts of the chunk so far: the earlier invocations' (from the checkpoint loop) plus this one's. Progress written
 * before write modes has no skipped, deleted or writeUnits: read as 0.
 */
function addCounts(progress: ChunkProgress | undefined, counts: ImportCounts): ImportCounts {
  const sum = (field: keyof ImportCounts) => (progress?.[field] ?? 0) + counts[field];
  return {
    rows: sum('rows'),
    written: sum('written'),
    rejected: sum('rejected'),
    skipped: sum('skipped'),
    deleted: sum('deleted'),
    writeUnits: sum('writeUnits'),
  };
}

/** A paused import's chunk returns at once: its checkpoint held, nothing written, asking again after a wait. */
function pausedProgress(event: ImportChunkEvent, from: Checkpoint, config: LambdaConfig): ChunkProgress {
  const { progress } = event;
  const waitSeconds = nextPausedWait(progress?.pausedWaitSeconds, config.pausedFirstWaitSeconds);
  const lines = progress?.lines === undefined ? {} : { lines: progress.lines };
  return { next: from, ...addCounts(progress, NO_COUNTS), ...lines, pausedWaitSeconds: waitSeconds };
}

/** ImportChunk task: import one chunk from its checkpoint; counts add up over checkpoint loops. */
export function createImportHandler({ s3, writeTransport, writeModes, config, ledger }: Wiring) {
  const getObject = sendGetObject(s3);
  const calls = writeTransport; // the calls of every write mode (write/write-mode.ts WriteCalls)
  const write = config.write ?? DEFAULT_WRITE_CONFIG;
  const containerLogger = createContainerLogger();
  const containerMetrics = createImportMetrics();
  return async (event: ImportChunkEvent, context: LambdaContextLike): Promise<ChunkProgress> => {
    const { job, chunk, chunkIndex, progress } = event;
    const { bucket, table } = job.request;
    const known = progress?.next ?? { offset: chunk.start, line: chunk.line ?? 1 };
    const limiter: { current?: RateLimiter } = {}; // made with the sink, after the first read of the settings
    const onRate = (rate: number) => limiter.current?.setRate(chunkRate(job, chunk, rate));
    const live = await followLiveSettings(ledger, job.executionName, {
      onRate,
      intervalMs: config.liveSettingsIntervalMs,
    });
    if (live.paused) {
      live.stop();
      return pausedProgress(event, known, config);
    }
    const { reader, from } = await laneStart(event, known, getObject);
    const keys = { bucket, key: reader.key, table, execution: job.executionName, chunk: chunkIndex };
    const log = invocationLogger(containerLogger, context, keys);
    const deadline = importDeadline(event, write, context, log);
    const stopping = deadline.signal;
    const created = createImportSink(job, chunk, calls, {
      write,
      stopping,
      live: live.settings !== null,
      modes: writeModes,
    });
    const { sink, writer } = created;
    limiter.current = created.limiter;
    if (live.settings) onRate(live.settings.maxWriteRate);
    const metrics = importMetricsPublisher(config, containerMetrics, event, writer); // one line per invocation, failed or not
    const shouldStop = () => deadline.reached() || live.paused;
    const rejectsAt = rejectsKey(config.rejectsPrefix, event, from);
    const rejects = openRejectsFile(s3, config, bucket, rejectsAt, reader.key);
    const reject = (row: RejectedRow) => rejects.add(row);
    const params = { job, chunk: reader.chunk, from, read: reader.read, sink, shouldStop, reject };
    const result = await importRange(params, reader)
      .finally(() => (deadline.dispose(), live.stop()))
      .catch(async (error: unknown) => (await rejects.abort(), metrics.failed(error)));
    await keepRejects(rejects, reader);
    const counts = addCounts(progress, { ...created.counts(), rows: result.rows, rejected: result.rejected });
    metrics.done(result.rejected);
    log.info('chunk progress', { from: from.offset, next: result.next?.offset ?? null, ...counts });
    const damage = reader.damage();
    if (damage) {
      const done = `the ${counts.rows} rows before it were read and ${counts.written} of them written`;
      const kept = `(${counts.rejected} rejected); rejects in s3://${bucket}/${rejectsAt}`;
      throw corruptSourceError(reader.where, reader.compression, damage, `${done} ${kept}`);
    }
    // The staged piece has served its purpose; the lifecycle rule on the staging prefix is only the backstop.
    if (result.next === null && reader.stagedPiece) await deleteObject(s3, bucket, reader.stagedPiece);
    const lines = chunk.line === undefined ? { lines: chunkLines(chunk, result.lineAfter) } : {};
    if (result.next && live.paused) return { ...pausedProgress(event, result.next, config), ...counts, ...lines };
    return { next: result.next, ...counts, ...lines };
  };
}

/**
 * The chunk's reader, and where this invocation starts: the checkpoint, the chunk's first record when preflight knows
 * it, or (a plain object's byte range) the first record boundary at or after the range's start (lane-range.ts).
 */
async function laneStart(event: ImportChunkEvent, known: Checkpoint, getObject: ReturnType<typeof sendGetObject>) {
  const { job, chunk, progress } = event;
  const reader = chunkReader(job, chunk, known, getObject);
  const { size } = job.sources.objects[chunk.object];
  const dialect = () => createRecordFormat(job.request.format).dialect;
  const from = await laneFrom(chunk, progress?.next, dialect, reader.read, size);
  return { reader, from };
}

/**
 * Imports the range by its format: Parquet by row group, the others by byte records; a plain object's chunk ends
 * where its byte range does, its last record finished past it (lane-range.ts).
 */
function importRange(params: ImportChunkParams, reader: ChunkReader): Promise<ImportChunkResult> {
  if (params.job.request.format.type === 'parquet') return importParquetChunk(params);
  const { size } = params.job.sources.objects[params.chunk.object];
  return importChunk({ ...params, ...(reader.compression === 'none' ? { size } : {}) });
}

/** This invocation's rejects file, at `key`; nothing is written unless a row is rejected. */
function openRejectsFile(s3: Wiring['s3'], config: LambdaConfig, bucket: string, key: string, object: string) {
  const { bucketKmsKeyArn, rejectsPartBytes } = config;
  const target = { bucket, key, contentType: 'text/csv', kmsKeyArn: bucketKmsKeyArn ?? null };
  return new RejectsFile(() => startStreamUpload(s3, { ...target, partBytes: rejectsPartBytes }), object);
}

/** Stores this invocation's rejected rows, with where a compressed object broke off as the last. */
async function keepRejects(rejects: RejectsFile, reader: ChunkReader): Promise<void> {
  const damage = damageRow(reader);
  if (damage) await rejects.add(damage);
  await rejects.finish();
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createImportHandler);
