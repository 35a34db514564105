import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '../cli/local-run/local-stack.js';
import { runLocalImport } from '../cli/local-run/runner.js';
import type { ImportRequest, WriteMode } from '../lambdas/contract/import-request.js';
import { DEFAULT_MAX_CONCURRENCY } from '../lambdas/contract/limits.js';
import type { ImportSummary } from '../lambdas/contract/workflow-payloads.js';
import { createWiring } from '../lambdas/wiring/wiring.js';
import { WRITE_MODE_TABLE, type WriteModeTable } from '../lambdas/write/write-modes.js';

/**
 * The mirror figure (issue 36): a table of N items, then a mirror of a file that dropped 5% of them, against a put
 * of the whole file, at two sizes (BENCH_MIRROR_SIZES, default 100,000 and 400,000: 1M takes too long on this
 * shared 2-core machine). Memory is the process's high-water mark while each run lasts (sampled every 20 ms): locally
 * every step runs in this one process, so it bounds what any one step used.
 */
export interface MirrorContext {
  readonly bucket: string;
  readonly upload: (key: string, body: string) => Promise<unknown>;
  readonly dynamodb: DynamoDBClient;
  readonly log: (line: string) => void;
}

const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const MIB = 1024 * 1024;
/** `sync` until the sync mode is in the table of modes: a put, as the mirror's key recording does not depend on it. */
const MODES: WriteModeTable = WRITE_MODE_TABLE; // sync is a built-in mode now

/** The process's high-water RSS and heap while `run` lasts. */
async function withPeakMemory<T>(run: () => Promise<T>) {
  const peak = { rss: 0, heap: 0 };
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peak.rss = Math.max(peak.rss, rss);
    peak.heap = Math.max(peak.heap, heapUsed);
  };
  const timer = setInterval(sample, 20);
  const started = performance.now();
  try {
    const result = await run();
    sample();
    return {
      result,
      seconds: (performance.now() - started) / 1000,
      rssMiB: round(peak.rss / MIB),
      heapMiB: round(peak.heap / MIB),
    };
  } finally {
    clearInterval(timer);
  }
}

const rowsOf = (ids: number[]) => `id,v\n${ids.map((i) => `k${String(i).padStart(8, '0')},value-${i}`).join('\n')}\n`;

async function runImport(request: ImportRequest): Promise<ImportSummary> {
  const wiring = { ...createWiring(), writeModes: MODES };
  try {
    return await runLocalImport(
      { chunkMiB: 2, allowWithoutBackup: true, ...request },
      { wiring, maxConcurrency: DEFAULT_MAX_CONCURRENCY },
    );
  } finally {
    wiring.writeTransport.destroy();
  }
}

/** One size: put the whole file into a new table, then mirror the file less every 20th row (5%). */
async function mirrorOnce(ctx: MirrorContext, items: number) {
  const table = `bench-mirror-${Date.now()}`;
  await ensureTable(ctx.dynamodb, table, { name: 'id', type: 'S' });
  const ids = Array.from({ length: items }, (_, i) => i);
  const kept = ids.filter((i) => i % 20 !== 7);
  await ctx.upload(`mirror-${items}-all.csv`, rowsOf(ids));
  await ctx.upload(`mirror-${items}-kept.csv`, rowsOf(kept));
  try {
    ctx.log(`mirror: put of ${items} rows`);
    const putRun = await withPeakMemory(() => runImport({ bucket: ctx.bucket, key: `mirror-${items}-all.csv`, table }));
    ctx.log(`mirror: mirror of ${kept.length} rows over ${items} items`);
    const request = {
      bucket: ctx.bucket,
      key: `mirror-${items}-kept.csv`,
      table,
      mode: 'sync' as WriteMode,
      mirror: true,
    };
    const mirrorRun = await withPeakMemory(() => runImport(request));
    const deleted = mirrorRun.result.deleted;
    if (deleted !== items - kept.length) throw new Error(`mirror deleted ${deleted} of ${items - kept.length}`);
    return {
      items,
      put: {
        seconds: round(putRun.seconds, 1),
        itemsPerSecond: round(items / putRun.seconds),
        rssMiB: putRun.rssMiB,
        heapMiB: putRun.heapMiB,
      },
      mirror: {
        seconds: round(mirrorRun.seconds, 1),
        written: mirrorRun.result.written,
        deleted,
        rssMiB: mirrorRun.rssMiB,
        heapMiB: mirrorRun.heapMiB,
      },
      mirrorToPutTime: round(mirrorRun.seconds / putRun.seconds, 2),
    };
  } finally {
    await ctx.dynamodb.send(new DeleteTableCommand({ TableName: table }));
  }
}

/** The figure at every size of BENCH_MIRROR_SIZES, smallest first. */
export async function mirrorFigure(ctx: MirrorContext) {
  const sizes = (process.env.BENCH_MIRROR_SIZES ?? '100000,400000').split(',').map(Number);
  const runs = [];
  for (const items of sizes) {
    runs.push(await mirrorOnce(ctx, items));
    ctx.log(`mirror: ${JSON.stringify(runs.at(-1))}`); // each size as it ends: a long run's earlier sizes survive it
  }
  return { sizes: runs, droppedShare: 0.05 };
}
