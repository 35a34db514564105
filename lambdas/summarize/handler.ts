import type { ReleaseLanesEvent, SummarizeEvent } from '../contract/workflow-payloads.js';
import { resolveLambdaConfig } from '../environment/config.js';
import { createContainerLogger } from '../observability/logger.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { summarizeIo } from './summarize-io.js';
import { runSummarizeStep, type SummarizeFunctionHandler } from './summarize-steps.js';

export type { SummarizeFunctionHandler } from './summarize-steps.js';

/**
 * The Summarize function serves two Task states, Summarize and ReleaseLanes (summarize-steps.ts), one Lambda so that
 * no construct id or state changes.
 */
export function createSummarizeFunctionHandler({ s3, config, ledger }: Wiring): SummarizeFunctionHandler {
  const { bucketName, bucketKmsKeyArn, rejectsPartBytes, rejectsPrefix } = resolveLambdaConfig(config);
  // Rejects and the report lie in the stack's bucket (BUCKET_NAME) when deployed, also for a request from a source.
  const io = summarizeIo(s3, ledger, {
    kmsKeyArn: bucketKmsKeyArn,
    partBytes: rejectsPartBytes,
    outputBucket: bucketName ?? undefined,
  });
  const options = { rejectsPrefix, bucketName, logger: createContainerLogger() };
  return ((event: SummarizeEvent | ReleaseLanesEvent, context: object = {}) =>
    runSummarizeStep(event, io, { ...options, context })) as SummarizeFunctionHandler;
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createSummarizeFunctionHandler);
