import { LaneLeaseLostError } from '../contract/errors.js';
import { outputBucketOf } from '../request/deployment-scope.js';
import { type ChunkProgress, type ImportChunkEvent } from '../contract/workflow-payloads.js';
import { createLiveLimiter } from '../write/rate-limiter.js';
import { heldCheckpoint, planChunk } from '../chunk-layouts/chunk-plan.js';
import { BUILT_IN_TABLES } from '../chunk-layouts/chunk-layouts.js';
import { chunkLayoutOf } from '../contract/format-traits.js';
import { sourceFormatOf } from '../formats/record-formats.js';
import type { ImportChunkIo } from './import-chunk-io.js';
import { chunkRate } from './import-sink.js';
import { followAdmitted } from './chunk-admission.js';
import { pausedProgress } from './chunk-progress.js';
import { finishInvocation, importRange, startInvocation, type ImportChunkOptions } from './chunk-invocation.js';

// The options live beside the invocation they set up (chunk-invocation.ts); callers keep reading them here.
export type { ImportChunkOptions } from './chunk-invocation.js';

/**
 * ImportChunk: imports one chunk from its checkpoint until it is done or the invocation nears its end, and returns
 * its progress; counts add up over the workflow's checkpoint loop. The invocation's plan (chunk-plan.ts) says what
 * to read and how; the chunk's layout picks its importer (chunk-layouts/chunk-layouts.ts); a paused import returns at once.
 *
 * @example
 * const io = importChunkIo(s3, writeTransport, { kmsKeyArn: config.bucketKmsKeyArn, partBytes: config.rejectsPartBytes });
 * const logger = createContainerLogger();
 * const metrics = createImportMetrics();
 * const progress = await runImportChunk(event, io, { config, ledger, context, logger, metrics });
 * // progress.next: null once the chunk is done, else the checkpoint the workflow hands the next invocation
 */
export async function runImportChunk(
  event: ImportChunkEvent,
  io: ImportChunkIo,
  options: ImportChunkOptions,
): Promise<ChunkProgress> {
  const { job, chunk, progress } = event;
  const { config } = options;
  const { formats = BUILT_IN_TABLES.formats, layouts = BUILT_IN_TABLES.layouts } = options;
  const plan = planChunk(event, config.rejectsPrefix, { formats, layouts }, outputBucketOf(config, job.request.bucket));
  // The plan reads the layout's traits; the invocation runs its importer.
  const { importer } = chunkLayoutOf(sourceFormatOf(job.request.format, formats).traits, layouts);
  const rate = chunkRate(job, chunk);
  const limiter = createLiveLimiter(rate); // first, so the live settings set its rate from their first read
  // Each renewal carries the rows handled since the last one: the import's live count, in the ledger.
  const counted = { now: () => 0, reported: 0 };
  const rowsSince = () => {
    const now = counted.now();
    const since = now - counted.reported;
    counted.reported = now;
    return since;
  };
  const live = await followAdmitted(options.ledger, job, {
    onRate: (maxWriteRate) => limiter.setRate(chunkRate(job, chunk, maxWriteRate)),
    intervalMs: config.liveSettingsIntervalMs,
    rowsSince,
  });
  try {
    if (live.isPaused()) return pausedProgress(progress, heldCheckpoint(plan), config);
    // Uncapped and not in the ledger (the bench's single invocation): no limiter on the write path at all.
    const shared = live.settings !== null || rate > 0 ? limiter : undefined;
    const invocation = await startInvocation(
      event,
      plan,
      io,
      options,
      shared,
      () => live.isPaused() || live.isLeaseLost(),
    );
    counted.now = () => invocation.budget.rows();
    // The lease is renewed while records are read; the rejects and the staged piece are dealt with after.
    const paused = () => live.isPaused() || live.isLeaseLost();
    const result = await importRange(invocation, importer, paused).finally(live.stop);
    const done = await finishInvocation(invocation, result, io);
    if (result.next && live.isLeaseLost()) throw new LaneLeaseLostError(job.executionName, result.next);
    return result.next && live.isPaused() ? { ...pausedProgress(progress, result.next, config), ...done } : done;
  } finally {
    live.stop();
  }
}
