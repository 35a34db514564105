import type { ImportSummary, ReleasedLanes, ReleaseLanesEvent, SummarizeEvent } from '../contract/workflow-payloads.js';
import { executionOutputPrefix } from '../contract/workflow-payloads.js';
import { outputBucketOf } from '../request/deployment-scope.js';
import { putObject } from '../wiring/aws-io.js';
import { createContainerLogger, invocationLogger } from '../observability/logger.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { chunkResultsOf, summarize, totalsByObject } from './summarize.js';
import { makeRejectsAbsolute } from './relative-rejects-io.js';

/** Summarize task: total the chunk counts, write the JSON report next to the rejects, return the summary. */
export function createSummarizeHandler({ s3, config, ledger }: Wiring) {
  const containerLogger = createContainerLogger();
  return async (event: SummarizeEvent, context: object = {}): Promise<ImportSummary> => {
    const summary = summarize(event, config.rejectsPrefix, outputBucketOf(config, event.request.bucket));
    const outputBucket = summary.outputBucket!;
    // Only when some chunk counted its lines from its own first record and rejected rows (absolute-lines.ts).
    const results = chunkResultsOf(event);
    const relative = results.some((r) => r.rejected > 0 && event.chunks[r.chunk].line === undefined);
    if (relative) {
      const target = { kmsKeyArn: config.bucketKmsKeyArn ?? null, partBytes: config.rejectsPartBytes, outputBucket };
      await makeRejectsAbsolute(s3, event, executionOutputPrefix(config.rejectsPrefix, event.executionName), target);
    }
    const report = {
      ...summary,
      executionName: event.executionName,
      object: event.object,
      objects: totalsByObject(event),
      chunkResults: results,
    };
    const body = JSON.stringify(report, null, 2);
    await putObject(s3, outputBucket, summary.reportKey, body, 'application/json', config.bucketKmsKeyArn);
    const keys = { bucket: summary.bucket, key: summary.key, table: summary.table, execution: event.executionName };
    // The lanes go back once the report is written; a retried Summarize releases again, which changes nothing.
    await ledger.release(event.executionName);
    invocationLogger(containerLogger, context, keys).info('summary', { ...summary });
    return summary;
  };
}

/** ReleaseLanes task: a failed import gives its lanes back to the ledger (idempotent); no report. */
export function createReleaseLanesHandler({ ledger }: Pick<Wiring, 'ledger'>) {
  return async (event: ReleaseLanesEvent): Promise<ReleasedLanes> => {
    await ledger.release(event.releaseLanes);
    return { released: event.releaseLanes };
  };
}

/** The Summarize function's handler, as both of its Task states call it. */
export interface SummarizeFunctionHandler {
  (event: SummarizeEvent, context?: object): Promise<ImportSummary>;
  (event: ReleaseLanesEvent, context?: object): Promise<ReleasedLanes>;
}

/**
 * The Summarize function serves two Task states of the workflow (lib/workflow-tasks.ts TASK_STATE_FUNCTIONS), Summarize
 * and ReleaseLanes, one Lambda so that no construct id or state changes: it hands each event to its task's handler,
 * told apart by ReleaseLanes' `releaseLanes` key.
 */
export function createSummarizeFunctionHandler(wiring: Wiring): SummarizeFunctionHandler {
  const summarizeImport = createSummarizeHandler(wiring);
  const releaseLanes = createReleaseLanesHandler(wiring);
  return ((event: SummarizeEvent | ReleaseLanesEvent, context?: object) =>
    'releaseLanes' in event ? releaseLanes(event) : summarizeImport(event, context)) as SummarizeFunctionHandler;
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createSummarizeFunctionHandler);
