/**
 * `capacity` (issue 37): each contender as a whole process against a table of P partitions of C units/s
 * (bench/capacity-proxy.ts in front of the engine), on files with random and key-sorted rows. Figures per run:
 * write units/s from the first write to the last ÷ P·C, requests sent per item written, items refused.
 * BENCH_CAPACITY_TABLE_UNITS: P·C (default 1,600, so C = 200 at P = 8, 50 at P = 32: the engine on this shared
 * 2-core machine must stay well above it); BENCH_CAPACITY_SECONDS (6): each file's rows in seconds of P·C;
 * BENCH_CAPACITY_PARTITIONS (8,32); BENCH_CAPACITY_ROWS_PER_KEY (10,40,200); BENCH_CAPACITY_BURST (1 s);
 * BENCH_CAPACITY_PAD (0: pad bytes per item); BENCH_CAPACITY_CONTENDERS (all: local,localSpread,ddbimport8,rawLoop16).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { capacityRows, capacityTsv, type CapacityFile } from './capacity-files.js';
import { startCapacityProxy } from './capacity-proxy.js';
import { capacityCommand, capacityTable, type CapacityCase, type ContenderFigure } from './capacity-table.js';
import { countItems, ddbimportBinary } from './peer-figures.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../bin/s3-ddb-import.mjs', import.meta.url));
const RAW_LOOP = fileURLToPath(new URL('./peers/raw-loop.mjs', import.meta.url));
const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').filter(Boolean);
const TABLE_UNITS = Number(process.env.BENCH_CAPACITY_TABLE_UNITS ?? 1600);
const SECONDS = Number(process.env.BENCH_CAPACITY_SECONDS ?? 6);
const BURST_SECONDS = Number(process.env.BENCH_CAPACITY_BURST ?? 1);
const PAD_BYTES = Number(process.env.BENCH_CAPACITY_PAD ?? 0);
const PARTITIONS = list('BENCH_CAPACITY_PARTITIONS', '8,32').map(Number);
const ROWS_PER_KEY = list('BENCH_CAPACITY_ROWS_PER_KEY', '10,40,200').map(Number);
const CONTENDERS = list('BENCH_CAPACITY_CONTENDERS', 'local,localSpread,ddbimport8,rawLoop16');
/** A contender that has not finished after this long is stopped and reported as such. */
const RUN_TIMEOUT_MS = 180_000;
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

interface CapacityContext {
  readonly newTable: () => Promise<string>;
  readonly dynamodb: DynamoDBClient;
  readonly dataDir: string;
  readonly log: (line: string) => void;
}

type Command = (file: string, table: string) => string[];

function commands(ddbimport: string | undefined): Record<string, Command> {
  const local =
    (...extra: string[]): Command =>
    (file, table) => [
      process.execPath,
      CLI,
      'local',
      file,
      '--table',
      table,
      '--types',
      'match_count=N,volume_count=N',
      '--json',
      ...extra,
    ];
  const goPeer: Command = (file, table) => [
    ...[ddbimport!, '-inputFile', file, '-delimiter', 'tab', '-tableRegion', process.env.AWS_REGION ?? 'us-east-1'],
    ...['-tableName', table, '-numericFields', 'year,match_count,volume_count', '-concurrency', '8'],
  ];
  return {
    local: local(),
    localSpread: local('--spread'),
    ...(ddbimport ? { ddbimport8: goPeer } : {}),
    rawLoop16: (file, table) => [process.execPath, RAW_LOOP, file, table, '16'],
  };
}

/** One case's file, written once. */
async function caseFile(ctx: CapacityContext, file: CapacityFile): Promise<string> {
  const path = `${ctx.dataDir}capacity-${file.order}-${file.rowsPerKey}-p${file.partitions}.tsv`;
  await writeFile(path, capacityTsv(file));
  return path;
}

/** The capacity figure: one run per contender per case, in the same bench run. */
export async function capacityFigure(ctx: CapacityContext, engineUrl: string) {
  const all = commands(await ddbimportBinary(ctx.log));
  const names = CONTENDERS.filter((name) => all[name]);
  const placeholder = { partitions: 1, unitsPerSecond: 1, burstSeconds: 1, table: '', hashKey: 'ngram' };
  const proxy = await startCapacityProxy(engineUrl, placeholder);
  const cases: CapacityCase[] = [];
  try {
    for (const partitions of PARTITIONS) {
      const files: CapacityFile[] = [
        { order: 'random' as const, rowsPerKey: 10, partitions, rows: 0, padBytes: PAD_BYTES },
        ...ROWS_PER_KEY.map((rowsPerKey) => ({
          order: 'sorted' as const,
          rowsPerKey,
          partitions,
          rows: 0,
          padBytes: PAD_BYTES,
        })),
      ].map((f) => ({ ...f, rows: capacityRows(partitions, TABLE_UNITS, f.rowsPerKey, SECONDS) }));
      for (const file of files) cases.push(await runCase(ctx, proxy, file, names, all));
    }
  } finally {
    await proxy.close();
  }
  const table = capacityTable(cases, TABLE_UNITS, capacityCommand(process.env));
  ctx.log(`capacity:\n${table}`);
  return {
    model: { tableUnits: TABLE_UNITS, burstSeconds: BURST_SECONDS, padBytes: PAD_BYTES, seconds: SECONDS },
    cases,
    table,
  };
}

type Proxy = Awaited<ReturnType<typeof startCapacityProxy>>;

async function runCase(
  ctx: CapacityContext,
  proxy: Proxy,
  file: CapacityFile,
  names: string[],
  all: Record<string, Command>,
): Promise<CapacityCase> {
  const path = await caseFile(ctx, file);
  const unitsPerSecond = TABLE_UNITS / file.partitions;
  const byContender: Record<string, ContenderFigure> = {};
  for (const name of names) {
    const table = await ctx.newTable();
    proxy.reset({ partitions: file.partitions, unitsPerSecond, burstSeconds: BURST_SECONDS, table, hashKey: 'ngram' });
    const env = { ...process.env, AWS_ENDPOINT_URL_DYNAMODB: proxy.url, DDB_ENDPOINT: proxy.url };
    const [bin, ...args] = all[name](path, table);
    const started = performance.now();
    const error = await run(bin, args, { env, maxBuffer: 1e8, timeout: RUN_TIMEOUT_MS }).then(
      () => undefined,
      // The contender's own last words (the CLI's error line, Go's last log line), not the command line.
      (e: Error & { stderr?: string; stdout?: string }) =>
        `${e.stderr ?? ''}\n${e.stdout ?? ''}`.trim().split('\n').filter(Boolean).at(-1)?.slice(0, 300) ?? e.message,
    );
    const wallSeconds = (performance.now() - started) / 1000;
    const s = proxy.stats();
    const landed = await countItems(ctx.dynamodb, table);
    const phaseSeconds = (s.lastWriteAt - s.firstWriteAt) / 1000;
    const figure = {
      toCapacity: round(s.unitsWritten / phaseSeconds / TABLE_UNITS),
      requestsPerItem: round(s.requests / Math.max(1, s.itemsWritten), 4),
      itemsRefused: s.itemsRefused,
      throttledRequests: s.throttledRequests,
      writePhaseSeconds: round(phaseSeconds, 2),
      wallSeconds: round(wallSeconds, 2),
      ...(landed !== file.rows ? { landed } : {}),
      ...(error ? { error } : {}),
    };
    ctx.log(`capacity: ${file.order} ${file.rowsPerKey}/key P=${file.partitions} ${name}: ${JSON.stringify(figure)}`);
    byContender[name] = figure;
  }
  return { order: file.order, rowsPerKey: file.rowsPerKey, partitions: file.partitions, rows: file.rows, byContender };
}
