import type { S3Client } from '@aws-sdk/client-s3';
import { gzipSync } from 'node:zlib';
import { stageObject } from '../lambdas/chunk-layouts/stager.js';
import { sendGetObject } from '../lambdas/wiring/aws-io.js';
import { putObject } from '../lambdas/wiring/aws-io.js';
import { decompressedFrom } from '../lambdas/source/decompressed-reader.js';
import { scannerDialect } from '../lambdas/source/record-scanner.js';
import { readRange } from '../lambdas/source/s3-range-reader.js';
import { timedImport } from './imports.js';

const MIB = 1024 * 1024;
const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const PARTS = 8;

export interface SourceContext {
  readonly bucket: string;
  readonly s3: S3Client;
  readonly upload: (key: string, body: string | Buffer) => Promise<number>;
  readonly newTable: () => Promise<string>;
  readonly log: (line: string) => void;
}

/** The TSV's data lines cut into `parts` files, each with the header, as a folder of part files holds them. */
function partFiles(text: string, parts: number): string[] {
  const header = text.slice(0, text.indexOf('\n') + 1);
  const lines = text.slice(header.length).split('\n').filter(Boolean);
  const per = Math.ceil(lines.length / parts);
  return Array.from({ length: parts }, (_, i) => `${header}${lines.slice(i * per, (i + 1) * per).join('\n')}\n`);
}

/** Rounds of the four imports: wall-clock figures on a shared 2-core machine drift by tens of percent. */
const ROUNDS = Number(process.env.BENCH_SOURCE_ROUNDS ?? 2);

type Timed = Awaited<ReturnType<typeof timedImport>>;

/**
 * The same 1-gram rows as the plain single-file pipeline, from three other sources: one .tsv.gz (staged, since at
 * 2 MiB chunks it holds far more than a chunk), a folder of 8 plain part files, and a folder of 8 .tsv.gz part
 * files (each imported whole, one lane each). The four imports run in turn, ROUNDS times, so that drift (the
 * machine is shared and its load drifts over a run) hits them alike; each source is its best
 * round as a ratio to the plain pipeline's best, in items/s, and in this process's CPU per item (the handlers run
 * here: what decompression, listing and staging add, free of the other processes' noise).
 */
export async function sourceFigures(ctx: SourceContext, text: string, rows: number) {
  const gz = gzipSync(text);
  const textBytes = Buffer.byteLength(text);
  await ctx.upload('sources/ngrams.tsv', text);
  await ctx.upload('sources/ngrams.tsv.gz', gz);
  const parts = partFiles(text, PARTS);
  await Promise.all(parts.map((part, i) => ctx.upload(`sources/parts/part-${i}.tsv`, part)));
  await Promise.all(parts.map((part, i) => ctx.upload(`sources/gz-parts/part-${i}.tsv.gz`, gzipSync(part))));
  ctx.log(`sources: one .tsv.gz is ${round(gz.length / MIB, 1)} MiB (${round(textBytes / gz.length, 1)}x)`);
  const sources = {
    plain: { key: 'sources/ngrams.tsv', chunkMiB: 2 },
    gzipFile: { key: 'sources/ngrams.tsv.gz', chunkMiB: 2 },
    partFiles: { prefix: 'sources/parts/', chunkMiB: 2 },
    gzipPartFiles: { prefix: 'sources/gz-parts/', chunkMiB: 64 },
  };
  const best: Record<string, Timed> = {};
  const all: Record<string, number[]> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, source] of Object.entries(sources)) {
      ctx.log(`sources: ${name}, round ${round} of ${ROUNDS}`);
      const timed = await timedImport({ bucket: ctx.bucket, table: await ctx.newTable(), ...source }, rows);
      ctx.log(`sources: ${name}: ${timed.itemsPerSecond} items/s, ${timed.cpuSecondsPer100k} s CPU per 100k items`);
      (all[name] ??= []).push(timed.itemsPerSecond);
      if (!best[name] || timed.itemsPerSecond > best[name].itemsPerSecond) best[name] = timed;
    }
  }
  const figure = (name: string) => ({
    ...best[name],
    everyRound: all[name],
    ratioToPlainPipeline: round(best[name].itemsPerSecond / best.plain.itemsPerSecond, 3),
    cpuRatioToPlainPipeline: round(best.plain.cpuSecondsPer100k / best[name].cpuSecondsPer100k, 3),
  });
  return {
    rounds: ROUNDS,
    compressionRatio: round(textBytes / gz.length, 2),
    plainPipeline: { ...best.plain, everyRound: all.plain },
    gzipFile: figure('gzipFile'),
    partFiles: figure('partFiles'),
    gzipPartFiles: figure('gzipPartFiles'),
  };
}

/**
 * What staging one big .gz costs preflight, against the local S3: decompressing alone (what resuming a staged object
 * repeats up to its checkpoint), and decompressing + cutting + PUTting 8 MiB pieces; in MB/s of plain data and
 * seconds per GB.
 */
export async function stagingFigure(ctx: SourceContext, plain: Buffer) {
  const gz = gzipSync(plain);
  const key = 'staging/large.tsv.gz';
  await ctx.upload(key, gz);
  const source = { bucket: ctx.bucket, key, etag: '' };
  const get = sendGetObject(ctx.s3);
  const read = (offset: number) =>
    decompressedFrom(readRange(get, source, 0, gz.length), 'gzip', { offset, line: 1 }, key);
  let started = performance.now();
  let bytes = 0;
  for await (const buf of read(0)) bytes += buf.length;
  const decompressSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const staged = await stageObject({
    dialect: scannerDialect({ delimiter: '\t', quote: '"' }),
    staging: 'bench-staging/run',
    object: 0,
    from: { offset: 0, line: 1 },
    read,
    pieceBytes: () => 8 * MIB,
    put: (k, body) => putObject(ctx.s3, ctx.bucket, k, body, 'application/octet-stream'),
    shouldStop: () => false,
  });
  const stageSeconds = (performance.now() - started) / 1000;
  if (bytes !== plain.length || staged.pieces.at(-1)?.end !== plain.length)
    throw new Error('staging did not cover the object');
  const mbps = (seconds: number) => round(plain.length / 1e6 / seconds);
  return {
    plainMB: round(plain.length / 1e6),
    gzipMB: round(gz.length / 1e6, 1),
    pieces: staged.pieces.length,
    decompressMBps: mbps(decompressSeconds),
    stageMBps: mbps(stageSeconds),
    stageSecondsPerGB: round(1000 / mbps(stageSeconds), 1),
  };
}
