import type { ImportSummary, ReleasedLanes, ReleaseLanesEvent, SummarizeEvent } from '../contract/workflow-payloads.js';
import { resolveLambdaConfig } from '../environment/config.js';
import { createContainerLogger } from '../observability/logger.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { summarizeIo } from './summarize-io.js';
import { runReleaseLanes, runSummarize } from './summarize.js';

/** The Summarize function's handler, as both of its Task states call it. */
export interface SummarizeFunctionHandler {
  (event: SummarizeEvent, context?: object): Promise<ImportSummary>;
  (event: ReleaseLanesEvent, context?: object): Promise<ReleasedLanes>;
}

/**
 * The Summarize function serves two Task states (lib/workflow-tasks.ts TASK_STATE_FUNCTIONS), Summarize and
 * ReleaseLanes, one Lambda so that no construct id or state changes; ReleaseLanes' events hold `releaseLanes`.
 */
export function createSummarizeFunctionHandler({ s3, config, ledger }: Wiring): SummarizeFunctionHandler {
  const settings = resolveLambdaConfig(config);
  // Rejects and the report lie in the stack's bucket (BUCKET_NAME) when deployed, also for a request from a source.
  const outputBucket = settings.bucketName ?? undefined;
  const target = { kmsKeyArn: settings.bucketKmsKeyArn, partBytes: settings.rejectsPartBytes, outputBucket };
  const io = summarizeIo(s3, ledger, target);
  const options = {
    rejectsPrefix: settings.rejectsPrefix,
    bucketName: settings.bucketName,
    logger: createContainerLogger(),
  };
  return ((event: SummarizeEvent | ReleaseLanesEvent, context: object = {}) =>
    'releaseLanes' in event
      ? runReleaseLanes(event, io)
      : runSummarize(event, io, { ...options, context })) as SummarizeFunctionHandler;
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createSummarizeFunctionHandler);
