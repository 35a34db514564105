import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ensureTable } from '../cli/local-run/local-stack.js';
import { generateNgrams } from '../test/fixtures/ngrams.js';
import { quotedCsv, scannerGbPerSecond, tsvGbPerSecond } from './scan-figures.js';

const MIB = 1024 * 1024;
const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const CHILD = fileURLToPath(new URL('./first-write-child.ts', import.meta.url));
/** BENCH_BASELINE_ROOT: a built checkout of today's code (a worktree of main's HEAD), measured beside this one. */
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
/** BENCH_FIRST_WRITE_BIG_MIB: the big file's size (default 2 GiB). */
const BIG_MIB = Number(process.env.BENCH_FIRST_WRITE_BIG_MIB ?? 2048);
const SMALL_MIB = 20;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

export interface FirstWriteContext {
  readonly bucket: string;
  readonly s3: S3Client;
  readonly dynamodb: DynamoDBClient;
  readonly dataDir: string;
  readonly log: (line: string) => void;
}

interface Kind {
  readonly name: 'quotedCsv' | 'tsv';
  /** The key's extension: the format's defaults (a tab for .tsv) follow it. */
  readonly extension: '.csv' | '.tsv';
  readonly header: string;
  /** A body of records (no header) repeated to make a file of any size. */
  readonly unit: Buffer;
  readonly keys: [{ name: string; type: 'S' | 'N' }, { name: string; type: 'S' | 'N' }?];
  readonly request: Record<string, unknown>;
}

const KINDS = (): Kind[] => [
  {
    name: 'quotedCsv',
    extension: '.csv',
    header: 'id,seq,text,note,flag\n',
    unit: quotedCsv(SMALL_MIB / 4),
    keys: [{ name: 'id', type: 'S' }],
    request: { types: { seq: 'N', flag: 'BOOL' } },
  },
  {
    name: 'tsv',
    extension: '.tsv',
    header: 'ngram\tyear\tmatch_count\tvolume_count\n',
    unit: Buffer.from(generateNgrams(150_000, { seed: 9 }).text.replace(/^[^\n]*\n/, '')),
    keys: [
      { name: 'ngram', type: 'S' },
      { name: 'year', type: 'N' },
    ],
    request: { format: { quote: '' }, types: { match_count: 'N', volume_count: 'N' } },
  },
];

/** Writes header + unit repeated to about `mib` MiB into a file, uploads it (multipart), deletes the file. */
async function uploadFile(ctx: FirstWriteContext, kind: Kind, mib: number, key: string): Promise<number> {
  const path = `${ctx.dataDir}/${key.replaceAll('/', '-')}`;
  const out = createWriteStream(path);
  out.write(kind.header);
  let size = Buffer.byteLength(kind.header);
  while (size < mib * MIB) {
    if (!out.write(kind.unit)) await once(out, 'drain');
    size += kind.unit.length;
  }
  out.end();
  await once(out, 'finish');
  const body = createReadStream(path);
  const upload = new Upload({
    client: ctx.s3,
    params: { Bucket: ctx.bucket, Key: key, Body: body },
    partSize: 64 * MIB,
    queueSize: 4,
  });
  await upload.done();
  await rm(path);
  return size;
}

/**
 * Starts an import of an object that exists in the local S3 in a child process (this checkout's code or the baseline's)
 * and polls the table: seconds to its first item. With `whole`, waits for the import to end too (its seconds);
 * otherwise stops it once the first item is there.
 */
interface ImportTiming {
  readonly firstWriteSeconds: number | null;
  readonly wholeSeconds: number | null;
}

async function timeImport(
  ctx: FirstWriteContext,
  root: string,
  request: Record<string, unknown>,
  whole: boolean,
): Promise<ImportTiming> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, root, JSON.stringify(request)], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = once(child, 'exit');
  let firstWriteSeconds: number | null = null;
  while (firstWriteSeconds === null && child.exitCode === null) {
    const page = await ctx.dynamodb.send(new ScanCommand({ TableName: String(request.table), Limit: 1 }));
    if ((page.Items?.length ?? 0) > 0) firstWriteSeconds = (performance.now() - started) / 1000;
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!whole) child.kill('SIGKILL');
  await exited;
  const wholeSeconds = whole ? (performance.now() - started) / 1000 : null;
  if (whole && child.exitCode !== 0) throw new Error(`import in ${root} failed: ${stdout}`);
  return { firstWriteSeconds: firstWriteSeconds === null ? null : round(firstWriteSeconds), wholeSeconds };
}

/** Two timed runs of the same import as one: the mean of each figure. */
function meanRun(a: ImportTiming, b: ImportTiming): ImportTiming {
  const mean = (x: number | null, y: number | null) => (x === null || y === null ? null : round((x + y) / 2));
  return {
    firstWriteSeconds: mean(a.firstWriteSeconds, b.firstWriteSeconds),
    wholeSeconds: mean(a.wholeSeconds, b.wholeSeconds),
  };
}

let tables = 0;
async function freshTable(ctx: FirstWriteContext, kind: Kind): Promise<string> {
  const table = `first-write-${Date.now()}-${tables++}`;
  await ensureTable(ctx.dynamodb, table, kind.keys[0], kind.keys[1]);
  return table;
}

/**
 * firstWrite: seconds from the object existing in S3 to the first item in DynamoDB (both the local engine), for a 20 MiB and a
 * 2 GiB file of each kind, their ratio from the same run (target <= 1.5), the whole-import time of the 20 MiB
 * file against today's code (BENCH_BASELINE_ROOT), and the scanner's in-memory speed.
 */
export async function firstWriteFigure(ctx: FirstWriteContext) {
  const figures: Record<string, unknown> = {};
  // BENCH_FIRST_WRITE_KINDS=tsv: only the kinds named (default both).
  const only = process.env.BENCH_FIRST_WRITE_KINDS?.split(',');
  for (const kind of KINDS().filter((k) => !only || only.includes(k.name))) {
    ctx.log(`firstWrite: ${kind.name} at ${SMALL_MIB} MiB and ${BIG_MIB} MiB`);
    const small = `first-write/${kind.name}-small${kind.extension}`;
    const big = `first-write/${kind.name}-big${kind.extension}`;
    const smallBytes = await uploadFile(ctx, kind, SMALL_MIB, small);
    const bigBytes = await uploadFile(ctx, kind, BIG_MIB, big);
    const run = async (root: string, key: string, whole: boolean) =>
      timeImport(ctx, root, { bucket: ctx.bucket, key, table: await freshTable(ctx, kind), ...kind.request }, whole);
    // Whole imports in the order baseline, this, this, baseline (each kind's mean of two): the shared machine's
    // load drifts over a run, and a fixed order gave that drift to one side (1.26x in one run, 0.95x over 7
    // alternating pairs of the same quoted CSV).
    const baselineFirst = BASELINE_ROOT ? await run(BASELINE_ROOT, small, true) : null;
    const smallRun = await run(ROOT, small, true);
    const smallAgain = BASELINE_ROOT ? await run(ROOT, small, true) : smallRun;
    const baselineAgain = BASELINE_ROOT ? await run(BASELINE_ROOT, small, true) : null;
    const bigRun = await run(ROOT, big, false);
    const baseline =
      BASELINE_ROOT && baselineFirst && baselineAgain
        ? { small: meanRun(baselineFirst, baselineAgain), big: await run(BASELINE_ROOT, big, false) }
        : null;
    const wholeSmall = meanRun(smallRun, smallAgain);
    ctx.log(`firstWrite: ${kind.name}: ${JSON.stringify({ smallRun, bigRun, baseline })}`);
    figures[kind.name] = {
      smallMiB: round(smallBytes / MIB, 1),
      bigMiB: round(bigBytes / MIB, 1),
      smallSeconds: wholeSmall.firstWriteSeconds,
      bigSeconds: bigRun.firstWriteSeconds,
      bigToSmall: round(bigRun.firstWriteSeconds! / wholeSmall.firstWriteSeconds!),
      wholeImportSmallSeconds: round(wholeSmall.wholeSeconds!, 1),
      ...(baseline && {
        baseline: {
          smallSeconds: baseline.small.firstWriteSeconds,
          bigSeconds: baseline.big.firstWriteSeconds,
          wholeImportSmallSeconds: round(baseline.small.wholeSeconds!, 1),
        },
        wholeImportToBaseline: round(wholeSmall.wholeSeconds! / baseline.small.wholeSeconds!),
      }),
    };
  }
  const quoted = quotedCsv(64);
  figures.scannerGBps = { quoteDense: round(scannerGbPerSecond(quoted)), quoteFree: round(tsvGbPerSecond()) };
  return figures;
}
