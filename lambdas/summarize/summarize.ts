import {
  chunkResultOf,
  countsOf,
  executionOutputPrefix,
  IMPORT_COUNT_NAMES,
  NO_IMPORT_COUNTS,
  type ChunkResult,
  type ImportCounts,
  type ImportSummary,
  type ReleasedLanes,
  type ReleaseLanesEvent,
  type SummarizeEvent,
} from '../contract/workflow-payloads.js';
import { invocationLogger, type createContainerLogger } from '../observability/logger.js';
import { outputBucketOf } from '../request/deployment-scope.js';
import { objectKey } from '../source/source-set.js';
import { DIFF_FOLDER } from '../sync-compare/diff-lines.js';
import { mirrorSummary } from './mirror-summary.js';

/** The I/O the Summarize function needs (summarize-io.ts binds it to S3 and the ledger). */
export interface SummarizeIo {
  /** Rewrites the relative rejects files under the execution's `folder` with the object's lines (relative-rejects-io.ts). */
  makeRejectsAbsolute(event: SummarizeEvent, folder: string): Promise<void>;
  /** Writes the JSON report. */
  putReport(bucket: string, key: string, body: string): Promise<void>;
  /** Gives the execution's lanes back to the ledger; releasing twice changes nothing. */
  releaseLanes(executionName: string): Promise<void>;
}

/** What Summarize runs with besides its event and I/O. */
export interface SummarizeOptions {
  readonly rejectsPrefix: string;
  /** The stack's bucket, where rejects and the report go (request/deployment-scope.ts outputBucketOf). @default - the request's */
  readonly bucketName?: string | null;
  readonly logger: ReturnType<typeof createContainerLogger>;
  /** The invocation's Lambda context (its request id goes on the log line); the local runner's is a plain object. */
  readonly context: object;
}

/**
 * Summarize task: totals the chunk counts, writes the JSON report next to the rejects, gives the lanes back and
 * returns the summary (the execution's output).
 * @example
 * const summary = await runSummarize(event, summarizeIo(s3, ledger, target), { rejectsPrefix, logger, context });
 */
export async function runSummarize(event: SummarizeEvent, io: SummarizeIo, options: SummarizeOptions) {
  const summary = summarize(event, options.rejectsPrefix, outputBucketOf(options, event.request.bucket));
  const results = chunkResultsOf(event);
  // Only when some chunk counted its lines from its own first record and rejected rows (absolute-lines.ts).
  if (results.some((r) => r.rejected > 0 && event.chunks[r.chunk].line === undefined))
    await io.makeRejectsAbsolute(event, executionOutputPrefix(options.rejectsPrefix, event.executionName));
  const { executionName, object } = event;
  const report = { ...summary, executionName, object, objects: totalsByObject(event), chunkResults: results };
  await io.putReport(summary.outputBucket!, summary.reportKey, JSON.stringify(report, null, 2));
  // The lanes go back once the report is written; a retried Summarize releases again, which changes nothing.
  await io.releaseLanes(executionName);
  const keys = { bucket: summary.bucket, key: summary.key, table: summary.table, execution: executionName };
  invocationLogger(options.logger, options.context, keys).info('summary', { ...summary });
  return summary;
}

/** ReleaseLanes task: a failed import gives its lanes back to the ledger (idempotent); no report. */
export async function runReleaseLanes(event: ReleaseLanesEvent, io: SummarizeIo): Promise<ReleasedLanes> {
  await io.releaseLanes(event.releaseLanes);
  return { released: event.releaseLanes };
}

/** The Map's results as named counts (contract chunkResultOf); one that is not a counts array fails the summary. */
export function chunkResultsOf(event: SummarizeEvent): ChunkResult[] {
  return event.chunkResults.map((value, index) => {
    const result = chunkResultOf(value);
    if (!result) throw new Error(`Map result ${index} is not a chunk's counts: ${JSON.stringify(value)}`);
    return result;
  });
}

/**
 * Totals the Map's per-chunk counts into the execution's summary; its rejects and report lie in `outputBucket` (the
 * stack's bucket, request/deployment-scope.ts outputBucketOf).
 */
export function summarize(
  event: SummarizeEvent,
  rejectsPrefix: string,
  outputBucket: string = event.request.bucket,
): ImportSummary {
  const { request, executionName } = event;
  const chunkResults = chunkResultsOf(event);
  const total = (field: keyof ImportCounts) => chunkResults.reduce((sum, r) => sum + r[field], 0);
  const rejected = total('rejected');
  const prefix = executionOutputPrefix(rejectsPrefix, executionName);
  const mirror = mirrorSummary(event, prefix);
  return {
    status: rejected > 0 ? 'SUCCEEDED_WITH_REJECTS' : 'SUCCEEDED',
    bucket: request.bucket,
    key: request.key ?? request.prefix ?? '',
    prefix: request.prefix ?? null,
    objects: event.sources.objects.length,
    table: request.table,
    ...countsOf(total),
    mode: request.mode,
    dryRun: request.dryRun,
    chunks: chunkResults.length,
    rejectsKey: rejected > 0 ? `${prefix}/` : null,
    reportKey: `${prefix}/report.json`,
    outputBucket,
    ...diffKeyOf(request.dryRun, countsOf(total), prefix),
    ...(mirror ? { mirror, deleted: countsOf(total).deleted + mirror.deleted } : {}),
  };
}

/** Where a dry run that found differences wrote its diff files (sync-compare/diff-lines.ts), else nothing. */
function diffKeyOf(dryRun: boolean, counts: ImportCounts, prefix: string): { diffKey?: string } {
  const differences = counts.added + counts.changed + counts.deleted;
  return dryRun && differences > 0 ? { diffKey: `${prefix}/${DIFF_FOLDER}/` } : {};
}

/** The report's per-object totals: which object each row, written item and rejected row came from. */
export function totalsByObject(event: SummarizeEvent): (ImportCounts & { key: string; chunks: number })[] {
  const totals = event.sources.objects.map((_, index) => ({
    key: objectKey(event.sources, index),
    chunks: 0,
    ...NO_IMPORT_COUNTS,
  }));
  for (const result of chunkResultsOf(event)) {
    const entry = totals[event.chunks[result.chunk].object];
    entry.chunks++;
    for (const name of IMPORT_COUNT_NAMES) entry[name] += result[name];
  }
  return totals;
}
