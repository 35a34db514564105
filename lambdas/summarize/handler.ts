import { putObject } from '../runtime/aws-io.js';
import { s3Client } from '../runtime/clients.js';
import { readLambdaConfig } from '../runtime/config.js';
import { createLogger } from '../runtime/logger.js';
import { summarize } from './summarize.js';
import type { ImportSummary, SummarizeEvent } from '../request/workflow-payloads.js';

const config = readLambdaConfig();

/** Summarize task: total the chunk counts, write the JSON report next to the rejects, return the summary. */
export async function handler(event: SummarizeEvent): Promise<ImportSummary> {
  const summary = summarize(event, config.rejectsPrefix);
  const report = { ...summary, executionName: event.executionName, object: event.object, chunkResults: event.chunkResults };
  await putObject(s3Client(), summary.bucket, summary.reportKey, JSON.stringify(report, null, 2), 'application/json');
  createLogger({ bucket: summary.bucket, key: summary.key, table: summary.table, execution: event.executionName }).info('summary', { ...summary });
  return summary;
}
