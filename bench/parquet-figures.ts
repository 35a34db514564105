import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ChunkProgress, ImportChunkEvent } from '../lambdas/contract/workflow-payloads.js';
import { readParquetFooter } from '../lambdas/formats/parquet/parquet-footer.js';
import { IMPORT_BASE_MIB, ROW_GROUP_MEMORY_FACTOR } from '../lambdas/chunk-layouts/parquet-chunks.js';
import { resolveImportRequest } from '../lambdas/request/resolve-request.js';
import { generateNgrams } from '../test/fixtures/ngrams.js';
import { timedImport } from './imports.js';
import { invokeInChild } from './step-processes.js';

const MIB = 1024 * 1024;
const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const run = promisify(execFile);
/** The venv the fixture script uses (test/fixtures/parquet/make-fixtures.py): pyarrow writes the bench files. */
const PYTHON = join(homedir(), '.cache/s3-ddb-import/pyarrow-venv/bin/python');
const WRITER = fileURLToPath(new URL('./tsv-to-parquet.py', import.meta.url));
const PARTS = 8;
const ROUNDS = Number(process.env.BENCH_PARQUET_ROUNDS ?? 2);
/** The memory figure's file: 2M rows in 2 row groups of 1M (~10 MB compressed, ~30 MB decoded each). */
const MEMORY_ROWS = 2_000_000;

export interface ParquetContext {
  readonly bucket: string;
  readonly upload: (key: string, body: string | Buffer) => Promise<number>;
  readonly newTable: () => Promise<string>;
  readonly dataDir: string;
  readonly log: (line: string) => void;
}

async function toParquet(tsv: string, target: string, groupRows: number, files = 0) {
  await run(PYTHON, [WRITER, tsv, target, String(groupRows), ...(files ? [String(files)] : [])], { maxBuffer: 1e7 });
}

type Timed = Awaited<ReturnType<typeof timedImport>>;

/**
 * The 1-gram rows as one Parquet file of 8 row groups and as a folder of 8 one-row-group files (written by pyarrow
 * from the TSV), imported in turn with the TSV pipeline (8 chunks each: one row group a chunk, the TSV in 8 byte
 * ranges), ROUNDS times; each Parquet source's best round in items/s as a ratio to the TSV's best, and this process's
 * handler CPU per 100k items. Skipped, with a note, when the pyarrow venv is missing.
 */
export async function parquetFigures(ctx: ParquetContext, text: string, rows: number) {
  if (!existsSync(PYTHON))
    return { skipped: `no pyarrow venv at ${PYTHON} (see test/fixtures/parquet/make-fixtures.py)` };
  const dir = join(ctx.dataDir, 'parquet');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tsv = join(dir, 'ngrams.tsv');
  await writeFile(tsv, text);
  const groupRows = Math.ceil(rows / PARTS);
  await toParquet(tsv, join(dir, 'ngrams.parquet'), groupRows);
  await toParquet(tsv, join(dir, 'parts'), groupRows, PARTS);
  const fileBytes = await ctx.upload('parquet/ngrams.parquet', await readFile(join(dir, 'ngrams.parquet')));
  for (const name of await readdir(join(dir, 'parts'))) {
    await ctx.upload(`parquet/parts/${name}`, await readFile(join(dir, 'parts', name)));
  }
  const tsvBytes = await ctx.upload('parquet/ngrams.tsv', text);
  ctx.log(`parquet: ${round(fileBytes / MIB, 1)} MiB as Parquet, ${round(tsvBytes / MIB, 1)} MiB as TSV`);
  const sources = {
    tsv: { key: 'parquet/ngrams.tsv', chunkMiB: tsvBytes / PARTS / MIB },
    parquetFile: { key: 'parquet/ngrams.parquet', chunkMiB: 1 / 1024, types: {} },
    parquetFolder: { prefix: 'parquet/parts/', chunkMiB: 1 / 1024, types: {} },
  };
  if (ROUNDS === 0) return { rounds: 0, memory: await memoryFigure(ctx, dir) }; // BENCH_PARQUET_ROUNDS=0: memory only
  const best: Record<string, Timed> = {};
  const all: Record<string, number[]> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, source] of Object.entries(sources)) {
      ctx.log(`parquet: ${name}, round ${round} of ${ROUNDS}`);
      const timed = await timedImport({ bucket: ctx.bucket, table: await ctx.newTable(), ...source }, rows);
      ctx.log(`parquet: ${name}: ${timed.itemsPerSecond} items/s, ${timed.cpuSecondsPer100k} s CPU per 100k items`);
      (all[name] ??= []).push(timed.itemsPerSecond);
      if (!best[name] || timed.itemsPerSecond > best[name].itemsPerSecond) best[name] = timed;
    }
  }
  const figure = (name: string) => ({
    ...best[name],
    everyRound: all[name],
    ratioToTsvPipeline: round(best[name].itemsPerSecond / best.tsv.itemsPerSecond, 3),
  });
  return {
    rounds: ROUNDS,
    parquetMiB: round(fileBytes / MIB, 2),
    tsvPipeline: { ...best.tsv, everyRound: all.tsv },
    parquetFile: figure('parquetFile'),
    parquetFolder: figure('parquetFolder'),
    memory: await memoryFigure(ctx, dir),
  };
}

/**
 * One import invocation of the first 1M-row group of a 2M-row file, in a process of its own (bench/task-child.mjs,
 * the deployed bundle): its peak RSS against the budget preflight enforces, 3x the row group's compressed size + 200
 * MB. The child stops at its checkpoint after ~30 s, well after the row group is fetched and its slices decoded.
 */
async function memoryFigure(ctx: ParquetContext, dir: string) {
  const tsv = join(dir, 'memory.tsv');
  await writeFile(tsv, generateNgrams(MEMORY_ROWS, { seed: 5 }).text);
  const file = join(dir, 'memory.parquet');
  await toParquet(tsv, file, MEMORY_ROWS / 2);
  const bytes = await readFile(file);
  const key = 'parquet/memory.parquet';
  await ctx.upload(key, bytes);
  const footer = await readParquetFooter(async (start, end) => bytes.subarray(start, end), bytes.length, key);
  const group = footer.rowGroups[0];
  const event: ImportChunkEvent = {
    job: {
      request: resolveImportRequest({ bucket: ctx.bucket, key, table: await ctx.newTable() }),
      executionName: 'bench-parquet',
      etag: '*',
      sources: { folder: '', objects: [{ key, size: bytes.length, etag: '*' }], staging: null, exportManifest: null },
      columns: ['ngram', 'year', 'match_count', 'volume_count'],
      keys: [
        { name: 'ngram', type: 'S', role: 'HASH' },
        { name: 'year', type: 'N', role: 'RANGE' },
      ],
      maxConcurrency: 1,
      chunkCount: 1,
      dataBytes: group.end - group.start,
    },
    chunk: { object: 0, start: group.start, end: group.end, line: 1 },
    chunkIndex: 0,
  };
  const result = await invokeInChild('ImportChunk', event, 64_000);
  if (result.error) throw Object.assign(new Error(result.error.message), { name: result.error.name });
  const { rows } = result.output as ChunkProgress;
  const groupMiB = (group.end - group.start) / MIB;
  const budgetMB = ROW_GROUP_MEMORY_FACTOR * groupMiB + IMPORT_BASE_MIB;
  return {
    rowGroupRows: group.rows,
    rowGroupCompressedMiB: round(groupMiB, 1),
    rowGroupDecodedMiB: round(group.uncompressedBytes / MIB, 1),
    rowsImported: rows,
    peakRssMB: round(result.peakRssMB),
    budgetMB: round(budgetMB),
    cpuSecondsPer100k: round((result.cpuSeconds / Math.max(1, rows)) * 100_000, 2),
  };
}
