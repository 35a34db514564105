import type { ImportSummary, SummarizeEvent } from '../contract/workflow-payloads.js';
import { putObject } from '../wiring/aws-io.js';
import { createContainerLogger, invocationLogger } from '../observability/logger.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { summarize, totalsByObject } from './summarize.js';

/** Summarize task: total the chunk counts, write the JSON report next to the rejects, return the summary. */
export function createSummarizeHandler({ s3, config }: Wiring) {
  const containerLogger = createContainerLogger();
  return async (event: SummarizeEvent, context: object = {}): Promise<ImportSummary> => {
    const summary = summarize(event, config.rejectsPrefix);
    const report = {
      ...summary,
      executionName: event.executionName,
      object: event.object,
      objects: totalsByObject(event),
      chunkResults: event.chunkResults,
    };
    const body = JSON.stringify(report, null, 2);
    await putObject(s3, summary.bucket, summary.reportKey, body, 'application/json', config.bucketKmsKeyArn);
    const keys = { bucket: summary.bucket, key: summary.key, table: summary.table, execution: event.executionName };
    invocationLogger(containerLogger, context, keys).info('summary', { ...summary });
    return summary;
  };
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createSummarizeHandler);
