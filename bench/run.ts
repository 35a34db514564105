/**
 * `npm run bench`: throughput and cost figures on the embedded local services, printed as one JSON
 * object (last stdout line). Everything is measured in the same run, so ratios hold on a noisy machine.
 * Sizes: BENCH_ROWS (pipeline rows, default 500,000).
 */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ImportChunkEvent } from '../lambdas/request/workflow-payloads.js';
import { resolveImportRequest } from '../lambdas/request/import-request.js';
import { DEFAULT_MAX_CONCURRENCY } from '../lambdas/runtime/limits.js';
import { ensureTable } from '../local/local-stack.js';
import { runLocalImport } from '../local/runner.js';
import { applyServiceEnv, startLocalServices } from '../local/services/index.js';
import { generateNgrams } from '../test/fixtures/ngrams.js';
import { plainReadMbPerSecond, preflightMbPerSecond, quotedCsv, scannerGbPerSecond } from './scan-figures.js';
import { ceilingLoop, naiveScript, prebuiltBatches } from './write-loops.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 500_000);
const CEILING_ROWS = 200_000;
const NAIVE_ROWS = 50_000;
const CAPPED_ROWS = 100_000;
const CAP = 2000;
const DATA_DIR = fileURLToPath(new URL('./.data/', import.meta.url));
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const round = (n: number, digits = 0) => Number(n.toFixed(digits));

const services = await startLocalServices({ log });
applyServiceEnv(services);
process.env.LOG_LEVEL = 'warn';
const s3 = new S3Client({ forcePathStyle: true });
const dynamodb = new DynamoDBClient({});
/**
 * A fresh table for each measurement; the previous one is dropped first, because DynamoDB Local keeps
 * every table in one capped JVM heap and slows down as it fills: each figure starts from the same state.
 */
let lastTable: string | undefined;
const newTable = async () => {
  if (lastTable) await dynamodb.send(new DeleteTableCommand({ TableName: lastTable }));
  lastTable = `bench-${Date.now()}`;
  await ensureTable(dynamodb, lastTable, { name: 'ngram', type: 'S' }, { name: 'year', type: 'N' });
  return lastTable;
};

try {
  const bucket = `bench-${Date.now()}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await mkdir(DATA_DIR, { recursive: true });
  const upload = async (key: string, body: string | Buffer) => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    return Buffer.byteLength(body);
  };

  log(`generating ${ROWS} 1-gram rows`);
  const ngrams = generateNgrams(ROWS);
  const file = `${DATA_DIR}ngrams.tsv`;
  await writeFile(file, ngrams.text);
  const size = await upload('ngrams.tsv', ngrams.text);

  log('ceiling: raw BatchWriteItem loop at 8, 16, 32 requests in flight');
  const batches = prebuiltBatches(ngrams.rows.slice(0, CEILING_ROWS));
  const byInFlight: Record<string, number> = {};
  let ceilingCpu = 0;
  for (const inFlight of [8, 16, 32]) {
    const cpuBefore = process.cpuUsage();
    byInFlight[inFlight] = round(await ceilingLoop(dynamodb, await newTable(), batches, inFlight));
    const cpu = process.cpuUsage(cpuBefore);
    if (inFlight === 16) ceilingCpu = ((cpu.user + cpu.system) / 1e6 / CEILING_ROWS) * 100_000;
  }
  const ceiling = Math.max(...Object.values(byInFlight));

  log('naive: one 25-item request at a time');
  const naive = await naiveScript(dynamodb, await newTable(), file, NAIVE_ROWS);

  log(`pipeline: full local workflow, ${ROWS} rows`);
  const pipeline = await timedImport({ bucket, key: 'ngrams.tsv', chunkMiB: 2 }, ROWS);

  log(`capped: maxWriteRate ${CAP} on ${CAPPED_ROWS} rows`);
  const cappedText = generateNgrams(CAPPED_ROWS, { seed: 3 }).text;
  await upload('capped.tsv', cappedText);
  const capped = await timedImport({ bucket, key: 'capped.tsv', chunkMiB: 0.5, maxWriteRate: CAP }, CAPPED_ROWS);

  log('scan: scanner in memory, preflight against a plain read over MinIO');
  const quoted = quotedCsv(256);
  const scannerGBps = scannerGbPerSecond(quoted);
  const quotedSize = await upload('quoted.csv', quoted);
  const source = { bucket, key: 'quoted.csv', etag: '*' };
  const plainReadMBps = await plainReadMbPerSecond(s3, source, quotedSize);
  const preflightMBps = await preflightMbPerSecond(s3, source, quotedSize, ',');

  log('import: CPU and peak RSS of one import invocation, small and large chunk');
  const large = generateNgrams(2_000_000, { seed: 4 }).text;
  const largeSize = await upload('large.tsv', large);
  const small = await importInChild(bucket, 'ngrams.tsv', size, 2 * 1024 * 1024);
  const big = await importInChild(bucket, 'large.tsv', largeSize, largeSize);
  // The quote-free path: preflight and a plain read of the same 2M-row TSV.
  const tsvSource = { bucket, key: 'large.tsv', etag: '*' };
  const tsvPlainMBps = await plainReadMbPerSecond(s3, tsvSource, largeSize);
  const tsvPreflightMBps = await preflightMbPerSecond(s3, tsvSource, largeSize, '\t');

  const summary = {
    machine: { cpus: cpus().length, node: process.version },
    ceiling: { itemsPerSecond: ceiling, byInFlight, rows: CEILING_ROWS, sdkCpuSecondsPer100k: round(ceilingCpu, 2) },
    pipeline: { ...pipeline, ratioToCeiling: round(pipeline.itemsPerSecond / ceiling, 3) },
    naive: { itemsPerSecond: round(naive), rows: NAIVE_ROWS, pipelineSpeedup: round(pipeline.itemsPerSecond / naive, 1) },
    capped: { maxWriteRate: CAP, itemsPerSecond: capped.itemsPerSecond, ratioToCap: round(capped.itemsPerSecond / CAP, 3) },
    scan: {
      quotedCsv: { scannerGBps: round(scannerGBps, 2), preflightMBps: round(preflightMBps), plainReadMBps: round(plainReadMBps), preflightToPlainRead: round(preflightMBps / plainReadMBps, 3) },
      tsv: { preflightMBps: round(tsvPreflightMBps), plainReadMBps: round(tsvPlainMBps), preflightToPlainRead: round(tsvPreflightMBps / tsvPlainMBps, 3) },
    },
    import: { small, large: big },
  };
  const targets = {
    pipelineToCeiling: summary.pipeline.ratioToCeiling >= 0.9,
    scannerGBps: summary.scan.quotedCsv.scannerGBps >= 0.8,
    preflightToPlainRead: summary.scan.quotedCsv.preflightToPlainRead >= 0.8,
    tsvPreflightToPlainRead: summary.scan.tsv.preflightToPlainRead >= 0.8,
    importPeakRss: Math.max(small.peakRssMB, big.peakRssMB) <= 256,
    importCpuPer100k: Math.max(small.cpuSecondsPer100k, big.cpuSecondsPer100k) <= 4,
    cappedWithin10Percent: Math.abs(summary.capped.ratioToCap - 1) <= 0.1,
  };
  process.stdout.write(`${JSON.stringify({ ...summary, targets })}\n`);
} finally {
  await services.stop();
}

/** Runs the whole local workflow (preflight to summary) on a fresh table: items/s over the whole run. */
async function timedImport(request: { bucket: string; key: string; chunkMiB: number; maxWriteRate?: number }, rows: number) {
  const table = await newTable();
  const started = performance.now();
  const summary = await runLocalImport({ ...request, table, types: { match_count: 'N', volume_count: 'N' } }, { maxConcurrency: DEFAULT_MAX_CONCURRENCY });
  const durationMs = performance.now() - started;
  if (summary.written !== rows) throw new Error(`import wrote ${summary.written} of ${rows} rows`);
  return { itemsPerSecond: round(rows / (durationMs / 1000)), rows, chunks: summary.chunks, durationMs: round(durationMs) };
}

/**
 * One import invocation of [0, chunkEnd) in its own process. It stops at its checkpoint after 30 s
 * (timeout 40 s, 10 s margin), so a huge chunk shows whether memory grows with the chunk.
 */
async function importInChild(bucket: string, key: string, size: number, chunkEnd: number) {
  const header = 'ngram\tyear\tmatch_count\tvolume_count\n'.length;
  const request = resolveImportRequest({ bucket, key, table: await newTable(), types: { match_count: 'N', volume_count: 'N' } });
  const event: ImportChunkEvent = {
    job: {
      request, executionName: 'bench', etag: '*', columns: ['ngram', 'year', 'match_count', 'volume_count'],
      keys: [{ name: 'ngram', type: 'S', role: 'HASH' }, { name: 'year', type: 'N', role: 'RANGE' }], maxConcurrency: 1, chunkCount: 1, dataBytes: size - header,
    },
    chunk: { start: header, end: Math.min(chunkEnd, size), line: 2 },
    chunkIndex: 0,
  };
  const child = fileURLToPath(new URL('./import-child.ts', import.meta.url));
  const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
  const { stdout } = await promisify(execFile)(tsx, [child, JSON.stringify({ event, timeoutMs: 40_000 })], { env: process.env, maxBuffer: 1e6 });
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { rows: number; written: number; finished: boolean; cpuSeconds: number; peakRssMB: number };
  return {
    chunkMiB: round((Math.min(chunkEnd, size) - header) / 1024 / 1024, 1),
    rows: result.rows,
    finished: result.finished,
    cpuSecondsPer100k: round((result.cpuSeconds / result.written) * 100_000, 2),
    peakRssMB: round(result.peakRssMB),
  };
}
