import type { Chunk } from '../../lambdas/contract/workflow-payloads.js';
import { createProgressRenderer, type ProgressSink } from '../progress/renderer.js';
import { estimateTotalRows, rateAndEta, type ProgressSnapshot } from '../progress/snapshot.js';
import type { RunnerEvent } from './runner.js';

/**
 * Turns the local runner's events into progress snapshots, drawn by the same renderer as `start --follow`:
 * scanning, then chunks done, rows, rows/s and an ETA (rows per byte of the chunks done, over the data).
 */
export function createProgressPrinter(sink: ProgressSink) {
  const now = sink.now ?? Date.now;
  const renderer = createProgressRenderer(sink);
  const chunkRows = new Map<number, { rows: number; rejected: number; done: boolean }>();
  let chunkList: Chunk[] = [];
  let importStarted: number | null = null;
  return {
    onEvent(event: RunnerEvent): void {
      if (event.type === 'chunk-start') {
        importStarted ??= now();
        return;
      }
      if (event.type === 'preflight') {
        chunkList = event.chunkList;
        renderer.render(preflightSnapshot(event));
        return;
      }
      if (event.type === 'mirror') {
        const { step, done, total, keys } = event;
        renderer.render({ phase: 'mirroring', mirror: { step, done, total, keys } });
        return;
      }
      chunkRows.set(event.chunkIndex, { rows: event.rows, rejected: event.rejected, done: event.done });
      renderer.render(importSnapshot(chunkRows, chunkList, importStarted, now()));
    },
    done: renderer.done,
  };
}

function preflightSnapshot(event: Extract<RunnerEvent, { type: 'preflight' }>): ProgressSnapshot {
  if (event.queue.waiting)
    return { phase: 'queued', queue: { reason: event.queue.reason, waitSeconds: event.queue.waitSeconds } };
  return {
    phase: 'scanning',
    scan: { offset: event.offset, size: event.size, chunks: event.chunks, complete: event.scanComplete },
  };
}

function importSnapshot(
  chunkRows: Map<number, { rows: number; rejected: number; done: boolean }>,
  chunkList: Chunk[],
  since: number | null,
  nowMs: number,
): ProgressSnapshot {
  const all = [...chunkRows.entries()];
  const rows = all.reduce((sum, [, c]) => sum + c.rows, 0);
  const rejected = all.reduce((sum, [, c]) => sum + c.rejected, 0);
  const done = all.filter(([, c]) => c.done);
  const bytesOf = (index: number) => (chunkList[index] ? chunkList[index].end - chunkList[index].start : 0);
  const sample = {
    rows: done.reduce((sum, [, c]) => sum + c.rows, 0),
    bytes: done.reduce((sum, [i]) => sum + bytesOf(i), 0),
  };
  const dataBytes = chunkList.reduce((sum, c) => sum + c.end - c.start, 0);
  return {
    phase: 'importing',
    chunks: { done: done.length, total: chunkList.length },
    rows: { rows, rejected },
    ...rateAndEta(rows, since, nowMs, estimateTotalRows(dataBytes, sample)),
  };
}
