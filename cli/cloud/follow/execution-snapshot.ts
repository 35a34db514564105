import { DescribeExecutionCommand, type DescribeExecutionCommandOutput } from '@aws-sdk/client-sfn';
import { compressionOf } from '../../../lambdas/source/compression.js';
import { objectKey } from '../../../lambdas/source/source-set.js';
import type { ChunkResult, PlanningState } from '../../../lambdas/contract/workflow-payloads.js';
import { CHUNKS_MAP_LABEL } from '../../../lib/workflow-tasks.js';
import type { LiveSnapshot } from '../../progress/renderer.js';
import { estimateTotalRows, rateAndEta, type ProgressSnapshot } from '../../progress/snapshot.js';
import type { CloudClients } from '../aws/clients.js';
import { readHistoryPosition } from './history.js';
import type { LiveSettingsReader } from '../aws/live-settings.js';
import { readFinishedChunks, readMapRun, type MapRunCounts } from './map-run.js';
import { readImportMetrics } from './execution-metrics.js';
import { measureSample, readSample } from '../source/sample.js';

/** What a follow keeps between polls, so each poll asks only for what changed. */
export interface FollowMemory {
  mapRunArn: string | null;
  /** Counts of the chunks already imported, by child execution ARN. */
  readonly finished: Map<string, ChunkResult>;
  /** Rows per byte from the object's first MiB, for an ETA before any chunk finishes; null when unreadable. */
  sample?: { rows: number; bytes: number } | null;
}

export function newFollowMemory(): FollowMemory {
  return { mapRunArn: null, finished: new Map() };
}

/** A poll's answer: the execution as DescribeExecution gives it, and the progress view while it runs. */
export interface ExecutionLook {
  readonly described: DescribeExecutionCommandOutput;
  /** With the import's live settings (`live`) when the clients can read its ledger and it holds lanes. */
  readonly snapshot: LiveSnapshot | null;
}

/** The clients of a look; `liveSettings` reads the import's ledger (the commands that know the stack give it). */
export type LookClients = CloudClients & { readonly liveSettings?: LiveSettingsReader };

/**
 * One look at a deployed execution. DescribeExecution says whether it runs; while it does, the history gives
 * the state it is in and the last Preflight output (scan offset of size, chunks cut, queue), the Map Run
 * gives chunks succeeded/failed/running of total, and rows so far come from the metrics (items written and
 * rejected) or from the finished chunks' outputs, whichever has counted more so far; the ledger, when the
 * clients can read it, gives the live settings (`rate`, `pause`, `resume`).
 */
export async function lookAtExecution(
  clients: LookClients,
  executionArn: string,
  memory: FollowMemory,
  nowMs: number,
): Promise<ExecutionLook> {
  const described = await clients.sfn.send(new DescribeExecutionCommand({ executionArn }));
  if (described.status !== 'RUNNING') return { described, snapshot: null };
  const snapshot = await runningSnapshot(clients, executionArn, described.stateMachineArn ?? '', memory, nowMs);
  const live = (await clients.liveSettings?.(described)) ?? null;
  return { described, snapshot: live ? { ...snapshot, live } : snapshot };
}

async function runningSnapshot(
  clients: CloudClients,
  executionArn: string,
  stateMachineArn: string,
  memory: FollowMemory,
  nowMs: number,
): Promise<ProgressSnapshot> {
  const { state, scan } = await readHistoryPosition(clients.sfn, executionArn);
  if (state !== CHUNKS_MAP_LABEL && state !== 'Summarize') return scanSnapshot(state, scan);
  const mapRun = await readMapRun(clients.sfn, executionArn, memory.mapRunArn);
  if (!mapRun) return scanSnapshot(state, scan);
  memory.mapRunArn = mapRun.mapRunArn;
  const finished = await readFinishedChunks(clients.sfn, mapRun.mapRunArn, memory.finished);
  const metrics = await readImportMetrics(clients.cloudwatch, stateMachineArn, mapRun.startDate, new Date(nowMs));
  if (scan && memory.sample === undefined && finished.length === 0)
    memory.sample = await sampleRowsPerByte(clients, scan);
  return importSnapshot(state, mapRun, finished, metrics, scan, memory.sample ?? null, nowMs);
}

function scanSnapshot(state: string | null, scan: PlanningState | null): ProgressSnapshot {
  if (scan?.queue.waiting || state === 'WaitForLanes') {
    return {
      phase: 'queued',
      queue: { reason: scan?.queue.reason ?? null, waitSeconds: scan?.queue.waitSeconds ?? 0 },
    };
  }
  const size = scan?.object.size ?? 0;
  return { phase: 'planning', plan: { size, chunks: scan?.chunks.length ?? 0, complete: scan?.scanComplete ?? false } };
}

function importSnapshot(
  state: string,
  mapRun: MapRunCounts,
  finished: ChunkResult[],
  metrics: { written: number; rejected: number } | null,
  scan: PlanningState | null,
  sample: { rows: number; bytes: number } | null,
  nowMs: number,
): ProgressSnapshot {
  const fromChunks = { rows: sum(finished, (c) => c.rows), rejected: sum(finished, (c) => c.rejected) };
  const fromMetrics = metrics ? { rows: metrics.written + metrics.rejected, rejected: metrics.rejected } : null;
  const rows = fromMetrics && fromMetrics.rows > fromChunks.rows ? fromMetrics : fromChunks;
  const chunkBytes = (c: ChunkResult) =>
    scan?.chunks[c.chunk] ? scan.chunks[c.chunk].end - scan.chunks[c.chunk].start : 0;
  const perByte = finished.length > 0 ? { rows: fromChunks.rows, bytes: sum(finished, chunkBytes) } : sample;
  const total = scan ? estimateTotalRows(scan.dataBytes, perByte) : null;
  return {
    phase: state === 'Summarize' ? 'summarizing' : 'importing',
    chunks: {
      done: mapRun.succeeded,
      total: mapRun.total || (scan?.chunks.length ?? 0),
      running: mapRun.running,
      failed: mapRun.failed,
    },
    rows,
    ...rateAndEta(rows.rows, mapRun.startDate.getTime(), nowMs, total),
  };
}

/** Rows per byte of the object's first MiB, measured as `estimate` does; null when it cannot be read. */
async function sampleRowsPerByte(
  clients: CloudClients,
  scan: PlanningState,
): Promise<{ rows: number; bytes: number } | null> {
  try {
    // The first object stands for all (a folder's part files are alike); a compressed one has no ETA until a chunk ends.
    const key = objectKey(scan.sources, 0);
    if (compressionOf(key, scan.request.format.compression) !== 'none') return null;
    const sample = await readSample({ s3: clients.s3, bucket: scan.request.bucket, key });
    const figures = await measureSample(sample, sample.length >= scan.object.size, scan.request, scan.keys);
    return figures.rows > 0 ? { rows: figures.rows, bytes: figures.rowBytes } : null;
  } catch {
    return null; // no ETA until a chunk finishes
  }
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((total, item) => total + of(item), 0);
}
