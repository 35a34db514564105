import { executionOutputPrefix, type ImportSummary, type SummarizeEvent } from '../contract/workflow-payloads.js';
import { putObject } from '../wiring/aws-io.js';
import { createContainerLogger, invocationLogger } from '../observability/logger.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { chunkResultsOf, summarize, totalsByObject } from './summarize.js';
import { makeRejectsAbsolute } from './relative-rejects-io.js';

/** The ReleaseLanes task's input: a failed import's execution name, whose lanes go back to the ledger. */
export interface ReleaseLanesEvent {
  readonly releaseLanes: string;
}

type SummarizeOutput<E> = E extends ReleaseLanesEvent ? { readonly released: string } : ImportSummary;

/** Summarize task: total the chunk counts, write the JSON report next to the rejects, return the summary. */
export function createSummarizeHandler({ s3, config, ledger }: Wiring) {
  const containerLogger = createContainerLogger();
  return async <E extends SummarizeEvent | ReleaseLanesEvent>(
    event: E,
    context: object = {},
  ): Promise<SummarizeOutput<E>> => {
    if ('releaseLanes' in event) {
      await ledger.release(event.releaseLanes);
      return { released: event.releaseLanes } as SummarizeOutput<E>;
    }
    const summary = summarize(event, config.rejectsPrefix);
    // Only when some chunk counted its lines from its own first record and rejected rows (absolute-lines.ts).
    const results = chunkResultsOf(event);
    const relative = results.some((r) => r.rejected > 0 && event.chunks[r.chunk].line === undefined);
    if (relative) {
      const target = { kmsKeyArn: config.bucketKmsKeyArn ?? null, partBytes: config.rejectsPartBytes };
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
    await putObject(s3, summary.bucket, summary.reportKey, body, 'application/json', config.bucketKmsKeyArn);
    const keys = { bucket: summary.bucket, key: summary.key, table: summary.table, execution: event.executionName };
    // The lanes go back once the report is written; a retried Summarize releases again, which changes nothing.
    await ledger.release(event.executionName);
    invocationLogger(containerLogger, context, keys).info('summary', { ...summary });
    return summary as SummarizeOutput<E>;
  };
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createSummarizeHandler);
