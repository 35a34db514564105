import { resolveImportRequest } from '../lambdas/request/resolve-request.js';
import type { ChunkProgress, ImportChunkEvent } from '../lambdas/contract/workflow-payloads.js';
import { DEFAULT_MAX_CONCURRENCY } from '../lambdas/contract/limits.js';
import { runLocalImport } from '../cli/local-run/runner.js';
import { invokeInChild } from './step-processes.js';

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

/**
 * Runs the whole local workflow (preflight to summary) into `table`: items/s over the whole run, and the CPU
 * this process spent (the handlers run in it; the engine, ministack, does not) per 100,000 items, and with
 * `engineCpuSeconds` what the engine spent on the same run.
 */
export async function timedImport(
  request: {
    bucket: string;
    key?: string;
    prefix?: string;
    table: string;
    chunkMiB: number;
    maxWriteRate?: number;
    /** @default the 1-gram TSV's number columns; a Parquet source passes {} (its schema types the columns) */
    types?: Record<string, 'N'>;
  },
  rows: number,
  engineCpuSeconds: () => number | undefined = () => undefined,
) {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const engineBefore = engineCpuSeconds();
  const summary = await runLocalImport(
    { types: { match_count: 'N', volume_count: 'N' }, ...request },
    { maxConcurrency: DEFAULT_MAX_CONCURRENCY },
  );
  const durationMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSecondsPer100k = round(((cpu.user + cpu.system) / 1e6 / rows) * 100_000, 2);
  const engineAfter = engineCpuSeconds();
  if (summary.written !== rows) throw new Error(`import wrote ${summary.written} of ${rows} rows`);
  return {
    itemsPerSecond: round(rows / (durationMs / 1000)),
    rows,
    chunks: summary.chunks,
    objects: summary.objects,
    durationMs: round(durationMs),
    cpuSecondsPer100k,
    ...(engineBefore !== undefined && engineAfter !== undefined
      ? { engineCpuSecondsPer100k: round(((engineAfter - engineBefore) / rows) * 100_000, 2) }
      : {}),
  };
}

/**
 * One import invocation of [0, chunkEnd) in its own process. It stops at its checkpoint after ~30 s
 * (timeout 64 s less the write path's 35.55 s stop margin), so a huge chunk shows whether memory grows
 * with the chunk.
 */
export async function importInChild(table: string, bucket: string, key: string, size: number, chunkEnd: number) {
  const header = 'ngram\tyear\tmatch_count\tvolume_count\n'.length;
  const request = resolveImportRequest({ bucket, key, table, types: { match_count: 'N', volume_count: 'N' } });
  const event: ImportChunkEvent = {
    job: {
      request,
      executionName: 'bench',
      etag: '*',
      sources: { folder: '', objects: [{ key, size, etag: '*' }], staging: null, exportManifest: null },
      columns: ['ngram', 'year', 'match_count', 'volume_count'],
      keys: [
        { name: 'ngram', type: 'S', role: 'HASH' },
        { name: 'year', type: 'N', role: 'RANGE' },
      ],
      maxConcurrency: 1,
      chunkCount: 1,
      dataBytes: size - header,
    },
    chunk: { object: 0, start: header, end: Math.min(chunkEnd, size), line: 2 },
    chunkIndex: 0,
  };
  const result = await invokeInChild('ImportChunk', event, 64_000);
  if (result.error) throw Object.assign(new Error(result.error.message), { name: result.error.name });
  const progress = result.output as ChunkProgress;
  const written = progress.written;
  return {
    chunkMiB: round((Math.min(chunkEnd, size) - header) / 1024 / 1024, 1),
    rows: progress.rows,
    finished: progress.next === null,
    cpuSecondsPer100k: round((result.cpuSeconds / written) * 100_000, 2),
    peakRssMB: round(result.peakRssMB),
  };
}
