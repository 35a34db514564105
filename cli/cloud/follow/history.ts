import { paginateGetExecutionHistory, type HistoryEvent, type SFNClient } from '@aws-sdk/client-sfn';
import type { PlanningState } from '../../../lambdas/contract/workflow-payloads.js';
import { CHUNKS_MAP_LABEL } from '../../../lib/workflow-tasks.js';

/** Pages of history read (newest first) looking for the latest Preflight output: 10 x 1,000 events. */
const MAX_PAGES = 10;
/** GetExecutionHistory's largest page (https://docs.aws.amazon.com/step-functions/latest/apireference/API_GetExecutionHistory.html). */
const PAGE_SIZE = 1000;

/** Where the workflow is, from its history: the state it is in and the last scan state Preflight returned. */
export interface HistoryPosition {
  /** Name of the state entered last (e.g. Preflight, WaitForTable, ImportChunks, Summarize); null before any. */
  readonly state: string | null;
  /** The latest Preflight output: checkpoint offset, object size, chunk list, queue; null before the first returns. */
  readonly scan: PlanningState | null;
}

/**
 * Reads the execution's history newest first (GetExecutionHistory with reverseOrder) until it has seen the
 * state the workflow is in and the latest Preflight output, which a `TaskStateExited` event carries in
 * `stateExitedEventDetails.output` (https://docs.aws.amazon.com/step-functions/latest/apireference/API_HistoryEvent.html).
 * Preflight's output is its whole result (no ResultPath), so it is the PlanningState preflight returned.
 */
export async function readHistoryPosition(sfn: SFNClient, executionArn: string): Promise<HistoryPosition> {
  let state: string | null = null;
  let pages = 0;
  const input = { executionArn, reverseOrder: true, includeExecutionData: true };
  for await (const answer of paginateGetExecutionHistory({ client: sfn, pageSize: PAGE_SIZE }, input)) {
    for (const event of answer.events ?? []) {
      state ??= enteredState(event);
      const scan = preflightOutput(event);
      if (scan) return { state: state ?? 'Preflight', scan };
    }
    if (++pages >= MAX_PAGES) break;
  }
  return { state, scan: null };
}

/** The state an event shows the workflow in: the name of a state entered, or the Map Run of the chunks. */
function enteredState(event: HistoryEvent): string | null {
  if (event.type?.startsWith('MapRun')) return CHUNKS_MAP_LABEL;
  return event.type?.endsWith('StateEntered') ? (event.stateEnteredEventDetails?.name ?? null) : null;
}

function preflightOutput(event: HistoryEvent): PlanningState | null {
  if (event.type !== 'TaskStateExited' || event.stateExitedEventDetails?.name !== 'Preflight') return null;
  try {
    return JSON.parse(event.stateExitedEventDetails.output ?? '') as PlanningState;
  } catch {
    return null; // truncated or withheld output (outputDetails.truncated): the next poll may have a smaller one
  }
}
