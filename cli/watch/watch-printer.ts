import type { WatchEvent } from './start-local-watch.js';

/** What the printer writes to: progress to `err`, one JSON object per finished import to `out` with --json. */
export interface WatchOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Prints each import of a watch as plain lines prefixed by its object key (several may run at once, so no
 * rewritten progress line): the upload, the scan, each chunk done, and the end, as `local` words it. With
 * `json`, the end is also one JSON object on stdout: `local --json`'s fields plus `key`.
 */
export function createWatchPrinter(output: WatchOutput, json: boolean) {
  const chunksOf = new Map<string, { total: number; done: number }>();
  return (event: WatchEvent): void => {
    const { key } = event;
    switch (event.type) {
      case 'upload':
        output.err(`${key}: importing into ${event.request.table}`);
        return;
      case 'progress': {
        const progress = event.event;
        if (progress.type === 'preflight' && progress.queue.waiting)
          output.err(`${key}: queued: ${progress.queue.reason}`);
        else if (progress.type === 'preflight' && progress.scanComplete) {
          chunksOf.set(key, { total: progress.chunks, done: 0 });
          output.err(`${key}: scanned ${progress.size} bytes into ${progress.chunks} chunks`);
        } else if (progress.type === 'chunk-progress' && progress.done) {
          const chunks = chunksOf.get(key) ?? { total: 0, done: 0 };
          chunks.done++;
          output.err(
            `${key}: chunk ${progress.chunkIndex} done (${chunks.done}/${chunks.total}), ${progress.written} written, ${progress.rejected} rejected`,
          );
        }
        return;
      }
      case 'done': {
        chunksOf.delete(key);
        const { summary, durationMs } = event;
        const rate = Math.round(summary.written / Math.max(durationMs / 1000, 0.001));
        output.err(
          `${key}: ${summary.status}: ${summary.rows} rows, ${summary.written} written, ${summary.rejected} rejected, ` +
            `${summary.chunks} chunks into ${summary.table} in ${(durationMs / 1000).toFixed(1)} s (${rate} items/s)`,
        );
        if (summary.rejectsKey) output.err(`${key}: rejected rows in s3://${summary.bucket}/${summary.rejectsKey}`);
        if (json) {
          const { status, rows, written, rejected, chunks, rejectsKey, table } = summary;
          output.out(JSON.stringify({ key, status, rows, written, rejected, chunks, durationMs, rejectsKey, table }));
        }
        return;
      }
      case 'failed':
        chunksOf.delete(key);
        output.err(`${key}: FAILED: ${event.error.name}: ${event.error.message}`);
        if (json)
          output.out(
            JSON.stringify({
              key,
              status: 'FAILED',
              error: event.error.name,
              message: event.error.message,
              durationMs: event.durationMs,
            }),
          );
    }
  };
}
