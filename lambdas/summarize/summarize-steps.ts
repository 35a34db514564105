import type { ImportSummary, ReleasedLanes, ReleaseLanesEvent, SummarizeEvent } from '../contract/workflow-payloads.js';
import { runReleaseLanes, runSummarize, type SummarizeIo, type SummarizeOptions } from './summarize.js';

/** The Summarize function's handler, as both of its Task states call it. */
export interface SummarizeFunctionHandler {
  (event: SummarizeEvent, context?: object): Promise<ImportSummary>;
  (event: ReleaseLanesEvent, context?: object): Promise<ReleasedLanes>;
}

/**
 * Summarize or ReleaseLanes (lib/workflow-tasks.ts TASK_STATE_FUNCTIONS), told apart by ReleaseLanes' `releaseLanes`.
 *
 * @example
 * await runSummarizeStep({ releaseLanes: 'exec-9' }, summarizeIo(s3, ledger, target), options); // { released: 'exec-9' }
 */
export function runSummarizeStep(
  event: SummarizeEvent | ReleaseLanesEvent,
  io: SummarizeIo,
  options: SummarizeOptions,
): Promise<ImportSummary | ReleasedLanes> {
  return 'releaseLanes' in event ? runReleaseLanes(event, io) : runSummarize(event, io, options);
}
