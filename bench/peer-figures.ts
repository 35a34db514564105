/**
 * `peers`: the full `local` CLI against the tools users come from, side by side on one local engine (ministack),
 * each as a whole process on the same 1-gram TSV: the original ddbimport Go CLI (stream, batch, N
 * workers; built from ../shared/peers/ddbimport when that folder and `go` are present) at 8 and 16
 * workers, and a raw Node BatchWriteItem loop at 16 in flight. Every run starts on a fresh table and
 * must land every row (counted afterwards), so a fast-but-lossy peer cannot win. An uncounted run goes
 * first; then runs alternate between contenders in rounds and each figure is the median round, since this
 * machine is shared and noisy.
 */
import { DescribeTableCommand, ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateNgrams } from '../test/fixtures/ngrams.js';

const run = promisify(execFile);
const PEER_ROWS = Number(process.env.BENCH_PEER_ROWS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
const PEER_SOURCE = fileURLToPath(new URL('../../shared/peers/ddbimport/', import.meta.url));
const CLI = fileURLToPath(new URL('../bin/s3-ddb-import.mjs', import.meta.url));
/** BENCH_BASELINE_CLI: another checkout's bin/s3-ddb-import.mjs, measured beside this one as `baseline`. */
const BASELINE_CLI = process.env.BENCH_BASELINE_CLI;
const RAW_LOOP = fileURLToPath(new URL('./peers/raw-loop.mjs', import.meta.url));
const round = (n: number, digits = 0) => Number(n.toFixed(digits));

interface PeerContext {
  readonly newTable: () => Promise<string>;
  readonly dynamodb: DynamoDBClient;
  readonly dataDir: string;
  readonly log: (line: string) => void;
  /** The engine's CPU seconds so far (bench/server-cpu.ts), or undefined. */
  readonly engineCpuSeconds: () => number | undefined;
}

interface Contender {
  readonly name: string;
  readonly command: (file: string, table: string) => string[];
}

/** Builds the Go peer once into the cache (about a minute the first time); undefined when it cannot. */
export async function ddbimportBinary(log: (line: string) => void): Promise<string | undefined> {
  const cache = process.env.S3DDB_CACHE_DIR ?? `${process.env.XDG_CACHE_HOME ?? `${homedir()}/.cache`}/s3-ddb-import`;
  const binary = `${cache}/peers/ddbimport`;
  if (existsSync(binary)) return binary;
  if (!existsSync(`${PEER_SOURCE}build.sh`)) return undefined;
  log('peers: building the ddbimport Go peer (one time)');
  try {
    await run(`${PEER_SOURCE}build.sh`, [binary], { maxBuffer: 1e7 });
    return binary;
  } catch (error) {
    log(`peers: ddbimport did not build, left out: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

/** The raw Node loop at 16 in flight: a peer, and the bench's warm-up run (it needs no Go). */
const RAW_LOOP_16: Contender = {
  name: 'rawLoop16',
  command: (file, table) => [process.execPath, RAW_LOOP, file, table, '16'],
};

function contenders(ddbimport: string | undefined): Contender[] {
  const goPeer = (workers: number): Contender => ({
    name: `ddbimport${workers}`,
    command: (file, table) => [
      ddbimport!,
      '-inputFile',
      file,
      '-delimiter',
      'tab',
      '-tableRegion',
      process.env.AWS_REGION ?? 'us-east-1',
      '-tableName',
      table,
      '-numericFields',
      'year,match_count,volume_count',
      '-concurrency',
      String(workers),
    ],
  });
  /** The `local` CLI of a checkout on the 1-gram file, as a user runs it. */
  const localCli = (name: string, bin: string): Contender => ({
    name,
    command: (file, table) => [
      process.execPath,
      bin,
      'local',
      file,
      '--table',
      table,
      '--types',
      'match_count=N,volume_count=N',
      '--json',
    ],
  });
  return [
    localCli('pipeline', CLI),
    ...(ddbimport ? [goPeer(8), goPeer(16)] : []),
    RAW_LOOP_16,
    // An older checkout's CLI, for before/after figures in one run; never counted as a peer.
    ...(BASELINE_CLI ? [localCli('baseline', BASELINE_CLI)] : []),
  ];
}

/** How often the write phase is sampled: 20 DescribeTable calls a second, ~0.5% of the engine, alike for every contender. */
const ITEM_COUNT_POLL_MS = 50;

/**
 * When a contender's first item and its last one landed, in seconds after its process started, seen from the
 * engine: DescribeTable's ItemCount, polled. ministack keeps ItemCount live (DynamoDB updates it about every six
 * hours), which is what lets the bench time every contender's write phase the same way, without instrumenting any
 * of them. Resolves when stopped; a time is NaN when it was not seen.
 */
function watchWritePhase(dynamodb: DynamoDBClient, table: string, rows: number) {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const seen = { firstItemSeconds: NaN, lastItemSeconds: NaN };
  let exitedAt: number | undefined;
  const polling = (async () => {
    // Once the process has exited, one more look: a contender that exits as its last write lands was seen at exit.
    for (let last = false; !last && Number.isNaN(seen.lastItemSeconds);) {
      last = exitedAt !== undefined;
      const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: table }));
      const at = Math.min(seconds(), exitedAt ?? Infinity);
      const count = Table?.ItemCount ?? 0;
      if (count > 0 && Number.isNaN(seen.firstItemSeconds)) seen.firstItemSeconds = at;
      if (count >= rows) seen.lastItemSeconds = at;
      if (!last) await new Promise((resolve) => setTimeout(resolve, ITEM_COUNT_POLL_MS));
    }
  })();
  return {
    /** Called when the process has exited. */
    stop: async () => {
      exitedAt = seconds();
      await polling;
      return seen;
    },
  };
}

/** Runs one contender as a whole process under /usr/bin/time: wall seconds and the process's CPU seconds. */
async function timeProcess(argv: string[]): Promise<{ wallSeconds: number; cpuSeconds: number }> {
  const env = { ...process.env, DDB_ENDPOINT: process.env.AWS_ENDPOINT_URL_DYNAMODB };
  const { stderr } = await run('/usr/bin/time', ['-f', 'TIME %e %U %S', ...argv], { env, maxBuffer: 1e8 });
  const [wall, user, system] = stderr.trim().split('\n').at(-1)!.replace('TIME ', '').split(' ').map(Number);
  return { wallSeconds: wall, cpuSeconds: user + system };
}

export async function countItems(dynamodb: DynamoDBClient, table: string): Promise<number> {
  let count = 0;
  let start: Record<string, never> | undefined;
  do {
    const page = await dynamodb.send(new ScanCommand({ TableName: table, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  return count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The `peers` figure: items/s and client CPU-s per 100k items of each contender, and the pipeline's ratio to the best peer. */
export async function peersFigure(ctx: PeerContext) {
  const file = `${ctx.dataDir}peers.tsv`;
  await writeFile(file, generateNgrams(PEER_ROWS, { seed: 5 }).text);
  const all = contenders(await ddbimportBinary(ctx.log));
  // One uncounted run first: the engine loads each service's module on its first request, and whoever ran first
  // would pay for it (and, on the engines before, for a cold JIT: ~20% slower than in its later rounds).
  ctx.log('peers: warm-up run (not counted)');
  await timeProcess(RAW_LOOP_16.command(file, await ctx.newTable()));
  const runs: Record<
    string,
    {
      itemsPerSecond: number;
      firstItemSeconds: number;
      writePhaseItemsPerSecond: number;
      cpuSecondsPer100k: number;
      engineCpuSecondsPer100k: number;
    }[]
  > = {};
  for (let r = 0; r < ROUNDS; r++) {
    // Rotate the order each round so no contender always runs first or last (the load drifts over the runs).
    for (const c of [...all.slice(r % all.length), ...all.slice(0, r % all.length)]) {
      const table = await ctx.newTable();
      ctx.log(`peers: round ${r + 1}/${ROUNDS} ${c.name}`);
      const engineBefore = ctx.engineCpuSeconds() ?? NaN;
      const phase = watchWritePhase(ctx.dynamodb, table, PEER_ROWS);
      const { wallSeconds, cpuSeconds } = await timeProcess(c.command(file, table));
      const { firstItemSeconds, lastItemSeconds } = await phase.stop();
      const engineSeconds = (ctx.engineCpuSeconds() ?? NaN) - engineBefore;
      const landed = await countItems(ctx.dynamodb, table);
      if (landed !== PEER_ROWS) throw new Error(`peers: ${c.name} landed ${landed} of ${PEER_ROWS} rows`);
      const per100k = (seconds: number) => (seconds / PEER_ROWS) * 100_000;
      const figure = {
        itemsPerSecond: PEER_ROWS / wallSeconds,
        firstItemSeconds,
        writePhaseItemsPerSecond: PEER_ROWS / (lastItemSeconds - firstItemSeconds),
        cpuSecondsPer100k: per100k(cpuSeconds),
        engineCpuSecondsPer100k: per100k(engineSeconds),
      };
      ctx.log(
        `peers: ${c.name} ${round(figure.itemsPerSecond)} items/s, first item at ${round(firstItemSeconds, 2)} s, ` +
          `${round(figure.writePhaseItemsPerSecond)} items/s from the first item to the last, ` +
          `${round(figure.cpuSecondsPer100k, 2)} CPU-s per 100k (engine ${round(figure.engineCpuSecondsPer100k, 2)})`,
      );
      (runs[c.name] ??= []).push(figure);
    }
  }
  const byContender = Object.fromEntries(
    Object.entries(runs).map(([name, rs]) => [
      name,
      {
        itemsPerSecond: round(median(rs.map((x) => x.itemsPerSecond))),
        firstItemSeconds: round(median(rs.map((x) => x.firstItemSeconds)), 2),
        writePhaseItemsPerSecond: round(median(rs.map((x) => x.writePhaseItemsPerSecond))),
        cpuSecondsPer100k: round(median(rs.map((x) => x.cpuSecondsPer100k)), 2),
        // What the engine spent serving it: NaN (null in the JSON) when the bench did not start the engine.
        engineCpuSecondsPer100k: round(median(rs.map((x) => x.engineCpuSecondsPer100k)), 2),
        runs: rs.map((x) => round(x.itemsPerSecond)),
      },
    ]),
  );
  const peers = Object.entries(byContender).filter(([name]) => name !== 'pipeline' && name !== 'baseline');
  const [bestPeer, best] = peers.reduce((a, b) => (b[1].itemsPerSecond > a[1].itemsPerSecond ? b : a));
  return {
    rows: PEER_ROWS,
    rounds: ROUNDS,
    byContender,
    bestPeer,
    ...(byContender.baseline
      ? { pipelineToBaseline: round(byContender.pipeline.itemsPerSecond / byContender.baseline.itemsPerSecond, 3) }
      : {}),
    pipelineToBestPeer: round(byContender.pipeline.itemsPerSecond / best.itemsPerSecond, 3),
    // The same, over the write phase only (first item to last, seen from the engine): what is left when each
    // contender's start (a Go binary reading a local file; Node, the upload to S3 and the workflow) is taken out.
    writePhaseToBestPeer: round(
      byContender.pipeline.writePhaseItemsPerSecond /
        Math.max(...peers.map(([, figure]) => figure.writePhaseItemsPerSecond)),
      3,
    ),
    // Per-round ratios: each round's pipeline run against the best peer of the same round.
    pipelineToBestPeerByRound: Array.from({ length: ROUNDS }, (_, r) =>
      round(runs.pipeline[r].itemsPerSecond / Math.max(...peers.map(([name]) => runs[name][r].itemsPerSecond)), 3),
    ),
  };
}
