import type { WriteMode } from '../lambdas/contract/import-request.js';
import { DEFAULT_MAX_CONCURRENCY } from '../lambdas/contract/limits.js';
import type { ImportSummary } from '../lambdas/contract/workflow-payloads.js';
import { runLocalImport } from '../cli/local-run/runner.js';

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

interface ModeContext {
  readonly bucket: string;
  readonly key: string;
  readonly rows: number;
  readonly newTable: () => Promise<string>;
  readonly log: (line: string) => void;
  /** The engine's CPU seconds so far, when the bench started it (bench/server-cpu.ts). */
  readonly serverCpuSeconds?: () => number | undefined;
}

interface ModeRun {
  readonly itemsPerSecond: number;
  readonly cpuSecondsPer100k: number;
  /** What the engine (ministack) spent on the same run: on a 2-core box the two share the cores. */
  readonly engineCpuSecondsPer100k?: number;
}

/** One whole local import of the file in `mode`: items/s over the run and this process's CPU (the handlers) per item. */
async function timedMode(ctx: ModeContext, table: string, mode: WriteMode, dryRun = false): Promise<ModeRun> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const serverBefore = ctx.serverCpuSeconds?.();
  const request = { bucket: ctx.bucket, key: ctx.key, table, chunkMiB: 2, mode, dryRun, allowWithoutBackup: true };
  const summary: ImportSummary = await runLocalImport(
    { ...request, types: { match_count: 'N', volume_count: 'N' } },
    { maxConcurrency: DEFAULT_MAX_CONCURRENCY },
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const done = dryRun ? summary.rows - summary.rejected : summary.written + summary.skipped + summary.deleted;
  if (done !== ctx.rows) throw new Error(`${mode}${dryRun ? ' dry run' : ''} handled ${done} of ${ctx.rows} rows`);
  const serverAfter = ctx.serverCpuSeconds?.();
  const server = serverBefore === undefined || serverAfter === undefined ? undefined : serverAfter - serverBefore;
  return {
    itemsPerSecond: round(ctx.rows / seconds),
    cpuSecondsPer100k: round(((cpu.user + cpu.system) / 1e6 / ctx.rows) * 100_000, 2),
    ...(server === undefined ? {} : { engineCpuSecondsPer100k: round((server / ctx.rows) * 100_000, 2) }),
  };
}

/**
 * Each write mode on the same rows, in the same run, `rounds` times interleaved (best of each kept, as noise on a
 * shared machine only slows a run down): put, insert and update into an empty table (every insert is written,
 * every update creates), delete of the rows the update left, and a dry run of put. Ratios to put.
 */
export async function modesFigure(ctx: ModeContext, rounds: number) {
  const best: Record<string, ModeRun> = {};
  const keep = (name: string, run: ModeRun) => {
    if (!best[name] || run.itemsPerSecond > best[name].itemsPerSecond) best[name] = run;
  };
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['put', 'insert', 'update'] as const) {
      ctx.log(`modes: ${mode}, round ${round + 1}`);
      const table = await ctx.newTable();
      keep(mode, await timedMode(ctx, table, mode));
      if (mode === 'update') keep('delete', await timedMode(ctx, table, 'delete')); // deletes what update wrote
    }
    ctx.log(`modes: dry run, round ${round + 1}`);
    keep('dryRun', await timedMode(ctx, await ctx.newTable(), 'put', true));
  }
  const toPut = (name: string) => round(best[name].itemsPerSecond / best.put.itemsPerSecond, 3);
  // Handler CPU per item against put's: what bounds a lane in the cloud, where the table's own work is not ours.
  const cpuToPut = (name: string) => round(best[name].cpuSecondsPer100k / best.put.cpuSecondsPer100k, 2);
  // The items/s ratio the two processes' CPU allows when they share the cores (the engine's included).
  const total = (run: ModeRun) => run.cpuSecondsPer100k + (run.engineCpuSecondsPer100k ?? NaN);
  const cpuBoundToPut = (name: string) => round(total(best.put) / total(best[name]), 3) || null;
  return {
    rows: ctx.rows,
    rounds,
    ...best,
    insertToPut: toPut('insert'),
    updateToPut: toPut('update'),
    deleteToPut: toPut('delete'),
    dryRunToPut: toPut('dryRun'),
    handlerCpuToPut: { insert: cpuToPut('insert'), update: cpuToPut('update'), delete: cpuToPut('delete') },
    cpuBoundToPut: {
      insert: cpuBoundToPut('insert'),
      update: cpuBoundToPut('update'),
      delete: cpuBoundToPut('delete'),
    },
  };
}
