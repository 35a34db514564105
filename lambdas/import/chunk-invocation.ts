import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import {
  executionOutputPrefix,
  type Checkpoint,
  type ChunkProgress,
  type ImportChunkEvent,
} from '../contract/workflow-payloads.js';
import { recordFileKeys, type FileKeyRecorder } from '../mirror/file-keys.js';
import type { ChunkLedger } from './chunk-admission.js';
import type { ResolvedLambdaConfig } from '../environment/config.js';
import type { LambdaContextLike, StopDeadline } from '../environment/lambda-context.js';
import { invocationLogger, type Logger } from '../observability/logger.js';
import { createRecordFormat, type SourceFormatTable } from '../formats/record-formats.js';
import type { RecordFormat } from '../formats/record-format.js';
import { corruptSourceError } from '../source/object-data.js';
import { type RateLimiter } from '../write/rate-limiter.js';
import type { WriteModeTable } from '../write/write-modes.js';
import { invocationFrom } from '../chunk-layouts/byte-range.js';
import { importDeadline } from './import-deadline.js';
import type { ImportChunkResult } from '../chunk-layouts/chunk-importer.js';
import type { ChunkImporter } from '../chunk-layouts/chunk-layout.js';
import type { ChunkLayoutTable } from '../chunk-layouts/chunk-layouts.js';
import { chunkLines, heldCheckpoint, rejectsKey, type ChunkPlan } from '../chunk-layouts/chunk-plan.js';
import { chunkReader, type ChunkReader } from './chunk-reader.js';
import type { ImportChunkIo } from './import-chunk-io.js';
import { importMetricsPublisher } from './import-metrics.js';
import { createImportSink, type ImportSink } from './import-sink.js';
import { addCounts } from './chunk-progress.js';
import { RejectBudget } from './reject-budget.js';
import { RejectsFile } from './rejects-file.js';
import { diffFileKey } from '../sync-compare/diff-lines.js';
import type { RejectedRow } from '../chunk-layouts/rejects.js';

/** What ImportChunk runs with besides its event and its I/O: configuration, the ledger, logs and metrics. */
export interface ImportChunkOptions {
  /** Every default applied (environment/config.ts resolveLambdaConfig), as the handler resolves it once. */
  readonly config: ResolvedLambdaConfig;
  /** The ledger: lease renewals, live settings, and lanes asked for again (chunk-admission.ts). */
  readonly ledger: ChunkLedger;
  /** The invocation's Lambda context: its remaining time sets the stop deadline. */
  readonly context: LambdaContextLike;
  /** The container's logger and metrics (one per container; the invocation's keys go with each line). */
  readonly logger: PowertoolsLogger;
  readonly metrics: Metrics;
  /** The source formats by `format.type`. @default SOURCE_FORMATS */
  readonly formats?: SourceFormatTable;
  /** The chunk layouts by name (FormatTraits.layout), each with its importer. @default CHUNK_LAYOUTS */
  readonly layouts?: ChunkLayoutTable;
  /** The write modes by `mode` (the wiring's). @default WRITE_MODE_TABLE */
  readonly modes?: WriteModeTable;
}

/** One started invocation: its plan, reader, start, write path, rejects file and how it stops. */
interface Invocation {
  readonly event: ImportChunkEvent;
  readonly plan: ChunkPlan;
  readonly reader: ChunkReader;
  readonly from: Checkpoint;
  readonly log: Logger;
  readonly write: ImportSink;
  /** A mirror's recorder of the keys this invocation wrote, or null when the request is no mirror. */
  readonly fileKeys: FileKeyRecorder | null;
  readonly rejects: RejectsFile;
  readonly rejectsAt: string;
  readonly recordFormat: () => RecordFormat;
  readonly deadline: StopDeadline;
  readonly metrics: ReturnType<typeof importMetricsPublisher>;
  /** The request's reject budget, counted over the chunk's invocations (reject-budget.ts). */
  readonly budget: RejectBudget;
}

/** Finds where the invocation starts and sets up its deadline, write path and rejects file. */
export async function startInvocation(
  event: ImportChunkEvent,
  plan: ChunkPlan,
  io: ImportChunkIo,
  options: ImportChunkOptions,
  limiter: RateLimiter | undefined,
  stopped: () => boolean,
): Promise<Invocation> {
  const { job, chunk, chunkIndex } = event;
  const { bucket, table, format } = job.request;
  let made: RecordFormat | undefined;
  const recordFormat = () => (made ??= createRecordFormat(format, options.formats));
  const reader = chunkReader(plan, heldCheckpoint(plan), io.getObject);
  const from = await invocationFrom(plan, () => recordFormat().dialect, reader.read);
  const keys = { bucket, key: plan.key, table, execution: job.executionName, chunk: chunkIndex };
  const log = invocationLogger(options.logger, options.context, keys);
  const { write } = options.config;
  const deadline = importDeadline(event, write, options.context, log);
  const modes = options.modes ? { modes: options.modes } : {};
  const diffAt = diffFileKey(plan.rejects.folder, chunkIndex, from.offset); // a sync dry run's diff, beside the rejects
  const openDiff = () => io.startDiffUpload(bucket, diffAt);
  // A paused lane stops sending at once (at its deadline, after a short drain): it resumes from its first unwritten row.
  const sinkOptions = {
    write,
    stopping: deadline.signal,
    halt: stopped,
    ...(limiter ? { limiter } : {}),
    ...modes,
    openDiff,
  };
  const sink = createImportSink(job, chunk, io.writeCalls, sinkOptions);
  const fileKeys = mirrorKeys(event, from, options.config.rejectsPrefix, sink);
  // One EMF line per invocation, failed or not (import-metrics.ts).
  const metrics = importMetricsPublisher(options.config, options.metrics, event, sink.writer);
  const rejectsAt = rejectsKey(plan, from);
  const rejects = new RejectsFile(() => io.startRejectsUpload(plan.rejects.bucket, rejectsAt), plan.key);
  const budget = new RejectBudget(job.request.maxRejects, event.progress);
  const path = fileKeys ? { ...sink, sink: fileKeys.sink } : sink;
  const common = { event, plan, reader, from, log, rejects, rejectsAt, recordFormat, deadline, metrics, budget };
  return { ...common, write: path, fileKeys };
}

/** A mirror records the keys the chunk writes (lambdas/mirror/file-keys.ts); other imports record nothing. */
function mirrorKeys(event: ImportChunkEvent, from: Checkpoint, rejectsPrefix: string, sink: ImportSink) {
  const { job, chunkIndex } = event;
  if (!job.request.mirror) return null;
  const outputPrefix = executionOutputPrefix(rejectsPrefix, job.executionName);
  return recordFileKeys(sink.sink, { outputPrefix, chunkIndex, from, keys: job.keys, dataBytes: job.dataBytes });
}

/** Runs the chunk's layout's importer from the invocation's start; a failure stores no rejects and is counted, then thrown. */
export function importRange(
  invocation: Invocation,
  importer: ChunkImporter,
  paused: () => boolean,
): Promise<ImportChunkResult> {
  const { event, plan, reader, from, recordFormat, write, rejects, deadline, metrics, budget } = invocation;
  const params = {
    job: event.job,
    plan,
    from,
    read: reader.read,
    recordFormat,
    sink: budget.counting(write.sink),
    shouldStop: () => deadline.reached() || paused() || budget.spent(),
    reject: (row: RejectedRow) => (budget.rejected(row.reason), rejects.add(row)),
  };
  return importer(params)
    .finally(() => deadline.dispose())
    .catch(async (error: unknown) => (await rejects.abort(), metrics.failed(error)));
}

/** Stores the rejects, logs and counts the invocation, fails on damaged data, and deletes a finished staged piece. */
export async function finishInvocation(
  invocation: Invocation,
  result: ImportChunkResult,
  io: ImportChunkIo,
): Promise<ChunkProgress> {
  const { event, plan, reader, rejects, log, write, from } = invocation;
  await keepRejects(rejects, reader, plan);
  const { bucket } = invocation.plan.rejects; // the stack's bucket, as the rejects: a source bucket may be read only
  await invocation.fileKeys?.store((key, body) => io.putText(bucket, key, body));
  const counts = addCounts(event.progress, { ...write.counts(), rows: result.rows, rejected: result.rejected });
  invocation.metrics.done(result.rejected);
  log.info('chunk progress', { from: from.offset, next: result.next?.offset ?? null, ...counts });
  const damage = reader.damage();
  if (damage) {
    const done = `the ${counts.rows} rows before it were read and ${counts.written} of them written`;
    const kept = `(${counts.rejected} rejected); rejects in s3://${invocation.plan.rejects.bucket}/${invocation.rejectsAt}`;
    throw corruptSourceError(plan.where, plan.compression, damage, `${done} ${kept}`);
  }
  invocation.budget.check(plan.where, `s3://${event.job.request.bucket}/${invocation.rejectsAt}`);
  // The staged piece has served its purpose; the lifecycle rule on the staging prefix is only the backstop.
  const { source } = plan;
  if (result.next === null && source.kind === 'staged-piece')
    await io.deleteObject(source.piece.bucket, source.piece.key);
  const lines = plan.lines === 'relative' ? { lines: chunkLines(result.lineAfter) } : {};
  return { next: result.next, ...counts, ...lines };
}

/** Stores this invocation's rejected rows, with where a compressed object broke off as the last. */
async function keepRejects(rejects: RejectsFile, reader: ChunkReader, plan: ChunkPlan): Promise<void> {
  const damage = reader.damage();
  if (damage) {
    const reason = `${plan.compression} data truncated or corrupt here (${damage.message}): the rest of the object was not read`;
    await rejects.add({ line: damage.line, offset: damage.offset, length: 0, raw: Buffer.alloc(0), reason });
  }
  await rejects.finish();
}
