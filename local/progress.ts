import type { RunnerEvent } from './runner.js';

/** Minimum time between progress lines when stderr is not a terminal (CI logs stay short). */
const LOG_INTERVAL_MS = 2000;

/** Prints scan and import progress to stderr: one rewritten line on a terminal, periodic lines otherwise. */
export function createProgressPrinter(output: { err(line: string): void; readonly interactive: boolean }) {
  const chunkRows = new Map<number, { rows: number; rejected: number; done: boolean }>();
  let chunks = 0;
  let lastPrinted = 0;
  const show = (line: string, force = false) => {
    const now = Date.now();
    if (output.interactive) process.stderr.write(`\r${line}\x1b[K`);
    else if (force || now - lastPrinted >= LOG_INTERVAL_MS) output.err(line);
    lastPrinted = now;
  };
  return {
    onEvent(event: RunnerEvent): void {
      if (event.type === 'chunk-start') return;
      if (event.type === 'preflight' && event.queue.waiting) {
        show(`queued: waiting for an earlier import into the same table (${event.queue.behind}), asking again in ${event.queue.waitSeconds} s`, true);
        return;
      }
      if (event.type === 'preflight') {
        chunks = event.chunks;
        const percent = event.size > 0 ? Math.round((100 * event.offset) / event.size) : 100;
        show(`scanning: ${percent}% of ${event.size} bytes, ${event.chunks} chunks`, event.scanComplete);
        return;
      }
      chunkRows.set(event.chunkIndex, { rows: event.rows, rejected: event.rejected, done: event.done });
      const all = [...chunkRows.values()];
      const rows = all.reduce((sum, c) => sum + c.rows, 0);
      const rejected = all.reduce((sum, c) => sum + c.rejected, 0);
      show(`importing: ${all.filter((c) => c.done).length}/${chunks} chunks, ${rows} rows, ${rejected} rejected`);
    },
    done(): void {
      if (output.interactive) process.stderr.write('\n');
    },
  };
}
