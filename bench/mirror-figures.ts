import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '../cli/local-run/local-stack.js';
import { readFileSync } from 'node:fs';
import { ASL_PATH, runLocalImport } from '../cli/local-run/runner.js';
import type { RunnerEvent, StateEvent } from '../cli/local-run/run-options.js';
import type { ImportRequest, WriteMode } from '../lambdas/contract/import-request.js';
import { DEFAULT_MAX_CONCURRENCY } from '../lambdas/contract/limits.js';
import { createWiring } from '../lambdas/wiring/wiring.js';
import { stepProcesses, type StepPeaks } from './step-processes.js';

/**
 * The mirror figure (issue 36): a table of N items, then a mirror of a file that dropped 5% of them, against a put
 * of the whole file, at two sizes (BENCH_MIRROR_SIZES, default 250,000 and 1,000,000). Memory, two ways: each
 * ImportChunk, MirrorScan and MirrorParts invocation runs in a process of its own (step-processes.ts), so `steps`
 * gives the largest peak RSS any one step of each function reached, as its Lambda sandbox would hold it: the figure
 * that must not grow with the table. The runner's process (the interpreter, Preflight, Summarize) is sampled every
 * 20 ms, overall and by top-level state, as before.
 */
export interface MirrorContext {
  readonly bucket: string;
  readonly upload: (key: string, body: string) => Promise<unknown>;
  readonly dynamodb: DynamoDBClient;
  readonly log: (line: string) => void;
}

const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const MIB = 1024 * 1024;

/** Peak RSS and heap by the top-level state running when sampled (the workflow's phases). */
type PhasePeaks = Record<string, { rssMiB: number; heapMiB: number }>;

/** The process's high-water RSS and heap while `run` lasts, overall and by phase (`run` tells the phase it enters). */
async function withPeakMemory<T>(run: (enter: (phase: string) => void) => Promise<T>) {
  const peak = { rss: 0, heap: 0 };
  const phases: PhasePeaks = {};
  let phase = 'start';
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peak.rss = Math.max(peak.rss, rss);
    peak.heap = Math.max(peak.heap, heapUsed);
    const at = (phases[phase] ??= { rssMiB: 0, heapMiB: 0 });
    at.rssMiB = Math.max(at.rssMiB, round(rss / MIB));
    at.heapMiB = Math.max(at.heapMiB, round(heapUsed / MIB));
  };
  const timer = setInterval(sample, 20);
  const started = performance.now();
  try {
    const result = await run((next) => {
      sample();
      phase = next;
    });
    sample();
    return {
      result,
      seconds: (performance.now() - started) / 1000,
      rssMiB: round(peak.rss / MIB),
      heapMiB: round(peak.heap / MIB),
      phases,
    };
  } finally {
    clearInterval(timer);
  }
}

const rowsOf = (ids: number[]) => `id,v\n${ids.map((i) => `k${String(i).padStart(8, '0')},value-${i}`).join('\n')}\n`;

/**
 * The workflow's top-level states (the phases memory is told by): the interpreter's events of a Map's inner states
 * carry no parent here, so the names are read from the workflow file.
 */
const TOP_LEVEL_STATES = new Set(
  Object.keys((JSON.parse(readFileSync(ASL_PATH, 'utf8')) as { States: Record<string, unknown> }).States),
);

/** The mirror's plan as its progress events tell it: Scan segments and key parts. */
interface PlanSeen {
  segments: number;
  parts: number;
}

/** The functions whose steps run each in a process of its own: the ones that grow with the file or the table. */
const STEPS_APART = ['ImportChunk', 'MirrorScan', 'MirrorParts'] as const;

/** Runs the import through the workflow file, telling `enter` each top-level state it enters. */
async function runImport(request: ImportRequest, enter: (phase: string) => void, steps: StepPeaks, plan?: PlanSeen) {
  const wiring = createWiring();
  const { invokers, peaks } = stepProcesses(STEPS_APART);
  const onStateEvent = (event: StateEvent) => {
    const name = event.state?.name;
    if (event.type === 'StateEntered' && name && TOP_LEVEL_STATES.has(name)) enter(name);
  };
  const onEvent = (event: RunnerEvent) => {
    if (event.type !== 'mirror' || !plan) return;
    if (event.step === 'scanning table') plan.segments = event.total;
    if (event.step === 'comparing') plan.parts = event.total;
  };
  try {
    return await runLocalImport(
      { chunkMiB: 2, allowWithoutBackup: true, ...request },
      { wiring, maxConcurrency: DEFAULT_MAX_CONCURRENCY, onStateEvent, onEvent, invokers },
    );
  } finally {
    Object.assign(steps, peaks);
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
    const all = { bucket: ctx.bucket, key: `mirror-${items}-all.csv`, table };
    const putSteps: StepPeaks = {};
    const putRun = await withPeakMemory((enter) => runImport(all, enter, putSteps));
    ctx.log(`mirror: mirror of ${kept.length} rows over ${items} items`);
    const request = {
      bucket: ctx.bucket,
      key: `mirror-${items}-kept.csv`,
      table,
      mode: 'sync' as WriteMode,
      mirror: true,
    };
    const plan: PlanSeen = { segments: 0, parts: 0 };
    const mirrorSteps: StepPeaks = {};
    const mirrorRun = await withPeakMemory((enter) => runImport(request, enter, mirrorSteps, plan));
    const deleted = mirrorRun.result.deleted;
    if (deleted !== items - kept.length) throw new Error(`mirror deleted ${deleted} of ${items - kept.length}`);
    return {
      items,
      put: {
        seconds: round(putRun.seconds, 1),
        itemsPerSecond: round(items / putRun.seconds),
        rssMiB: putRun.rssMiB,
        heapMiB: putRun.heapMiB,
        phases: putRun.phases,
        steps: putSteps,
      },
      mirror: {
        seconds: round(mirrorRun.seconds, 1),
        written: mirrorRun.result.written,
        deleted,
        rssMiB: mirrorRun.rssMiB,
        heapMiB: mirrorRun.heapMiB,
        phases: mirrorRun.phases,
        steps: mirrorSteps,
        ...plan,
        itemsPerPart: round(items / Math.max(1, plan.parts)),
      },
      mirrorToPutTime: round(mirrorRun.seconds / putRun.seconds, 2),
    };
  } finally {
    await ctx.dynamodb.send(new DeleteTableCommand({ TableName: table }));
  }
}

/** The figure at every size of BENCH_MIRROR_SIZES, smallest first. */
export async function mirrorFigure(ctx: MirrorContext) {
  const sizes = (process.env.BENCH_MIRROR_SIZES ?? '250000,1000000').split(',').map(Number);
  const runs = [];
  for (const items of sizes) {
    runs.push(await mirrorOnce(ctx, items));
    ctx.log(`mirror: ${JSON.stringify(runs.at(-1))}`); // each size as it ends: a long run's earlier sizes survive it
  }
  return { sizes: runs, droppedShare: 0.05, stepHeapMiB: Number(process.env.BENCH_STEP_HEAP_MIB ?? 0) || null };
}
