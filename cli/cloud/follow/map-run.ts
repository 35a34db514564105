import {
  DescribeExecutionCommand,
  DescribeMapRunCommand,
  paginateListExecutions,
  ListMapRunsCommand,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import { chunkResultOf, type ChunkResult } from '../../../lambdas/contract/workflow-payloads.js';

/** ListExecutions' largest page (https://docs.aws.amazon.com/step-functions/latest/apireference/API_ListExecutions.html). */
const PAGE_SIZE = 1000;
/**
 * Children described per look at most: when hundreds of chunks finish between two looks, the look stays
 * quick and the rest are described by the next ones (the metrics count their rows meanwhile).
 */
const MAX_DESCRIBED_PER_LOOK = 50;

/** The chunks Map Run's item counts (https://docs.aws.amazon.com/step-functions/latest/apireference/API_DescribeMapRun.html). */
export interface MapRunCounts {
  readonly mapRunArn: string;
  readonly status: string;
  readonly startDate: Date;
  readonly succeeded: number;
  readonly failed: number;
  readonly running: number;
  readonly total: number;
}

/**
 * The execution's Map Run (the workflow has one Distributed Map, `ImportChunks`) and its item counts: each
 * item is one chunk. ListMapRuns lists the Map Runs an execution started; null until the Map starts.
 */
export async function readMapRun(
  sfn: SFNClient,
  executionArn: string,
  known: string | null,
): Promise<MapRunCounts | null> {
  const mapRunArn = known ?? (await sfn.send(new ListMapRunsCommand({ executionArn }))).mapRuns?.[0]?.mapRunArn;
  if (!mapRunArn) return null;
  const run = await sfn.send(new DescribeMapRunCommand({ mapRunArn }));
  const counts = run.itemCounts;
  return {
    mapRunArn,
    status: run.status ?? 'RUNNING',
    startDate: run.startDate ?? new Date(),
    // A chunk that timed out or was aborted did not import: it counts as failed here.
    succeeded: counts?.succeeded ?? 0,
    failed: (counts?.failed ?? 0) + (counts?.timedOut ?? 0) + (counts?.aborted ?? 0),
    running: counts?.running ?? 0,
    total: counts?.total ?? 0,
  };
}

/**
 * The counts of every chunk imported so far: the output of each succeeded child execution of the Map Run
 * (the ChunkImported state's counts array). ListExecutions with a mapRunArn lists the
 * Map Run's child executions (API_ListExecutions.html); each one is described once and kept in `cache`,
 * so a follow costs one DescribeExecution per chunk over the whole import, not per poll.
 */
export async function readFinishedChunks(
  sfn: SFNClient,
  mapRunArn: string,
  cache: Map<string, ChunkResult>,
): Promise<ChunkResult[]> {
  let described = 0;
  const pages = paginateListExecutions({ client: sfn, pageSize: PAGE_SIZE }, { mapRunArn, statusFilter: 'SUCCEEDED' });
  for await (const page of pages) {
    for (const child of page.executions ?? []) {
      const arn = child.executionArn;
      if (!arn || cache.has(arn) || described >= MAX_DESCRIBED_PER_LOOK) continue;
      const answer = await sfn.send(new DescribeExecutionCommand({ executionArn: arn }));
      described++;
      const result = parseChunkResult(answer.output);
      if (result) cache.set(arn, result);
    }
  }
  return [...cache.values()];
}

function parseChunkResult(output: string | undefined): ChunkResult | null {
  try {
    return chunkResultOf(JSON.parse(output ?? ''));
  } catch {
    return null;
  }
}
