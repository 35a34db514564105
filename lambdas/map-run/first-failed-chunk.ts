import {
  DescribeExecutionCommand,
  ListExecutionsCommand,
  ListMapRunsCommand,
  type ExecutionListItem,
  type ListExecutionsCommandInput,
  type ListExecutionsCommandOutput,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import { sdkPages } from '../async/sdk-pages.js';
import type { StateError } from '../contract/task-payloads.js';

/**
 * What a Distributed Map fails with on AWS once its Map Run has more failed items than it tolerates: "The Map state
 * failed because the number of failed items exceeded the threshold specified in the state machine definition"
 * (https://docs.aws.amazon.com/step-functions/latest/dg/concepts-error-handling.html,
 * https://docs.aws.amazon.com/step-functions/latest/dg/maprun-fail-threshold.html). The chunk's own error
 * (BatchWriteFailedError, ...) stays in its failed child execution. The in-process interpreter passes the child's
 * error through instead, so this name never reaches the workflow locally.
 */
export const MAP_RUN_THRESHOLD_ERROR = 'States.ExceedToleratedFailureThreshold';

export type { StateError };

/** The chunk that failed first: its child execution and the error and cause it failed with. */
export interface FailedChunk {
  readonly executionArn: string;
  readonly error: string;
  readonly cause: string;
}

/** ListExecutions' largest page (https://docs.aws.amazon.com/step-functions/latest/apireference/API_ListExecutions.html). */
const PAGE_SIZE = 1000;
/** FAILED children read at most: with ToleratedFailurePercentage 0 the Map Run stops at its first failures. */
const MAX_PAGES = 5;

/**
 * The first failed chunk of the execution's Map Run, as three reads: ListMapRuns (the execution's one Map Run),
 * ListExecutions of its FAILED child executions (newest first, so the earliest stop is looked for over every page
 * read), DescribeExecution of that child (its error and cause). Null when the execution has no Map Run or no failed
 * child is listed yet (ListExecutions is eventually consistent).
 */
export async function firstFailedChunk(sfn: SFNClient, executionArn: string): Promise<FailedChunk | null> {
  const mapRunArn = (await sfn.send(new ListMapRunsCommand({ executionArn }))).mapRuns?.[0]?.mapRunArn;
  if (!mapRunArn) return null;
  const first = await earliestFailedChild(sfn, mapRunArn);
  if (!first?.executionArn) return null;
  const child = await sfn.send(new DescribeExecutionCommand({ executionArn: first.executionArn }));
  if (!child.error) return null;
  return { executionArn: first.executionArn, error: child.error, cause: child.cause ?? '' };
}

/** ListExecutions' continuation and page-size fields, as client-sfn's paginateListExecutions names them. */
const LIST_EXECUTIONS_TOKENS = { input: 'nextToken', output: 'nextToken', pageSize: 'maxResults' };

async function earliestFailedChild(sfn: SFNClient, mapRunArn: string): Promise<ExecutionListItem | null> {
  let earliest: ExecutionListItem | null = null;
  let read = 0;
  const input: ListExecutionsCommandInput = { mapRunArn, statusFilter: 'FAILED' };
  const pages = sdkPages<ListExecutionsCommandInput, ListExecutionsCommandOutput>(
    sfn,
    ListExecutionsCommand,
    LIST_EXECUTIONS_TOKENS,
    input,
    PAGE_SIZE,
  );
  for await (const answer of pages) {
    for (const child of answer.executions ?? []) if (!earliest || stopOf(child) < stopOf(earliest)) earliest = child;
    if (++read >= MAX_PAGES) break;
  }
  return earliest;
}

function stopOf(child: ExecutionListItem): number {
  return (child.stopDate ?? child.startDate)?.getTime() ?? Number.MAX_SAFE_INTEGER;
}

/**
 * The error users and the CLI should read for a failed ImportChunks Map: the first failed chunk's own error and
 * cause where the Map reports AWS's threshold error; any other error (the in-process interpreter's, which is
 * already the chunk's) as it is. The threshold error stays when no failed child can be found.
 */
export async function chunkErrorOf(sfn: SFNClient, executionArn: string, error: StateError): Promise<StateError> {
  if (error.Error !== MAP_RUN_THRESHOLD_ERROR) return error;
  const chunk = await firstFailedChunk(sfn, executionArn);
  return chunk ? { Error: chunk.error, Cause: chunk.cause } : error;
}
