import { DEFAULT_MAX_CONCURRENCY } from '../lambdas/contract/limits.js';
import type { ImportRequest } from '../lambdas/contract/import-request.js';
import { createWiring } from '../lambdas/wiring/wiring.js';
import { runLocalImport } from '../cli/local-run/runner.js';
import { generateNgrams } from '../test/fixtures/ngrams.js';

const round = (n: number, digits = 0) => Number(n.toFixed(digits));
/** BatchWriteItem's most items per request. */
const BATCH = 25;
/** Every tenth row of the changed file has another match_count. */
const CHANGED_EVERY = 10;

interface SyncContext {
  readonly bucket: string;
  readonly rows: number;
  readonly upload: (key: string, body: string) => Promise<number>;
  readonly newTable: () => Promise<string>;
  readonly log: (line: string) => void;
}

/** Requests of each call the import sent, counted on the wire (the write transport's middleware stack). */
type Sent = Record<'BatchWriteItemCommand' | 'BatchGetItemCommand', number>;

/** One whole local import: items/s over the run, the requests it sent, and each chunk's final counts. */
async function timedRun(ctx: SyncContext, key: string, table: string, mode: 'put' | 'sync') {
  const wiring = createWiring();
  const sent: Sent = { BatchWriteItemCommand: 0, BatchGetItemCommand: 0 };
  wiring.writeTransport.middlewareStack.add(
    ((next: (args: unknown) => Promise<unknown>, context: { commandName: keyof Sent }) => (args: unknown) => {
      if (context.commandName in sent) sent[context.commandName]++;
      return next(args);
    }) as never,
    { step: 'initialize', name: 'bench-count' } as never,
  );
  const changedByChunk = new Map<number, number>();
  const request: ImportRequest = { bucket: ctx.bucket, key, table, chunkMiB: 2, mode };
  const started = performance.now();
  try {
    const summary = await runLocalImport(
      { ...request, types: { match_count: 'N', volume_count: 'N' } },
      {
        maxConcurrency: DEFAULT_MAX_CONCURRENCY,
        wiring,
        onEvent: (e) => {
          if (e.type === 'chunk-progress') {
            const counts = e as unknown as { added: number; changed: number };
            changedByChunk.set(e.chunkIndex, counts.added + counts.changed);
          }
        },
      },
    );
    const seconds = (performance.now() - started) / 1000;
    return { summary, sent, changedByChunk, itemsPerSecond: round(ctx.rows / seconds) };
  } finally {
    wiring.writeTransport.destroy();
  }
}

/**
 * `sync` against `put` of the same 200,000-row file, in the same run: a put into an empty table, a sync of the same
 * file into the table that now holds exactly its items (no write request may be sent: counted on the wire), and a
 * sync of the file with every tenth row changed (its write requests against the changed rows / 25, rounded up, per
 * chunk). Best of `rounds` kept for items/s (noise on a shared machine only slows a run down).
 */
export async function syncFigure(ctx: SyncContext, rounds: number) {
  const { rows, text } = generateNgrams(ctx.rows, { seed: 7 });
  await ctx.upload('sync.tsv', text);
  const changed = rows.map((row, i) => (i % CHANGED_EVERY === 0 ? { ...row, match_count: row.match_count + 1 } : row));
  const header = text.slice(0, text.indexOf('\n') + 1);
  const line = (r: (typeof rows)[number]) => `${r.ngram}\t${r.year}\t${r.match_count}\t${r.volume_count}\n`;
  await ctx.upload('sync-changed.tsv', header + changed.map(line).join(''));
  const best = { put: 0, syncUnchanged: 0, syncChanged: 0 };
  let unchangedWrites = 0;
  let changedRun: Awaited<ReturnType<typeof timedRun>> | undefined;
  for (let r = 0; r < rounds; r++) {
    ctx.log(`sync: put then sync unchanged then sync 10% changed, round ${r + 1}`);
    const table = await ctx.newTable();
    const put = await timedRun(ctx, 'sync.tsv', table, 'put');
    const same = await timedRun(ctx, 'sync.tsv', table, 'sync');
    if (same.summary.unchanged !== ctx.rows) throw new Error(`sync found ${same.summary.unchanged} unchanged`);
    unchangedWrites += same.sent.BatchWriteItemCommand;
    changedRun = await timedRun(ctx, 'sync-changed.tsv', table, 'sync');
    best.put = Math.max(best.put, put.itemsPerSecond);
    best.syncUnchanged = Math.max(best.syncUnchanged, same.itemsPerSecond);
    best.syncChanged = Math.max(best.syncChanged, changedRun.itemsPerSecond);
  }
  const run = changedRun!;
  const expectedWrites = [...run.changedByChunk.values()].reduce((sum, n) => sum + Math.ceil(n / BATCH), 0);
  return {
    rows: ctx.rows,
    rounds,
    itemsPerSecond: best,
    syncUnchangedToPut: round(best.syncUnchanged / best.put, 3),
    unchanged: { writeRequests: unchangedWrites, readRequestsPerRound: Math.ceil(ctx.rows / 100) },
    tenPercentChanged: {
      changedRows: run.summary.changed,
      chunks: run.changedByChunk.size,
      writeRequests: run.sent.BatchWriteItemCommand,
      expectedWriteRequests: expectedWrites,
      readRequests: run.sent.BatchGetItemCommand,
    },
  };
}
