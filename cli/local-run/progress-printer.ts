import type { Chunk } from '../../lambdas/contract/workflow-payloads.js';
import { createProgressRenderer, type ProgressSink } from '../progress/renderer.js';
import { estimateTotalRows, rateAndEta, type ProgressSnapshot } from '../progress/snapshot.js';
import type { RunnerEvent } from './runner.js';

/**
 * Turns the local runner's events into progress snapshots, drawn by the same renderer as `start --follow`:
 * planning, then chunks done, rows, rows/s and an ETA (rows per byte of the chunks done, over the data).
 */
export function createProgressPrinter(sink: ProgressSink) {
  const now = sink.now ?? Date.now;
  const renderer = createProgressRenderer(sink);
  const chunkRows = new Map<number, { rows: number; rejected: number; done: boolean }>();
  let chunkList: Chunk[] = [];
  let importStarted: number | null = null;
  let liveRows = 0;
  const draw = () => renderer.render(importSnapshot(chunkRows, chunkList, importStarted, now(), liveRows));
  return {
    /**
     * The import's live count from the ledger (its lanes report their rows every 5 s): the rows move between
     * chunk ends, which a file of one chunk would otherwise show only at its end.
     */
    onLiveRows(rows: number): void {
      if (importStarted === null || rows <= liveRows) return;
      liveRows = rows;
      draw();
    },
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
      draw();
    },
    done: renderer.done,
  };
}

function preflightSnapshot(event: Extract<RunnerEvent, { type: 'preflight' }>): ProgressSnapshot {
  if (event.queue.waiting)
    return { phase: 'queued', queue: { reason: event.queue.reason, waitSeconds: event.queue.waitSeconds } };
  return { phase: 'planning', plan: { size: event.size, chunks: event.chunks, complete: event.scanComplete } };
}

function importSnapshot(
  chunkRows: Map<number, { rows: number; rejected: number; done: boolean }>,
  chunkList: Chunk[],
  since: number | null,
  nowMs: number,
  liveRows: number,
): ProgressSnapshot {
  const all = [...chunkRows.entries()];
  // The chunks' reports are exact but come at their ends; the ledger's count runs ahead of them between.
  const rows = Math.max(
    liveRows,
    all.reduce((sum, [, c]) => sum + c.rows, 0),
  );
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
