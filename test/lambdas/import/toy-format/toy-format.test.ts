import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { ResolvedFormat } from '../../../../lambdas/contract/import-request.js';
import type { ChunkProgress, ImportJob } from '../../../../lambdas/contract/workflow-payloads.js';
import { SOURCE_FORMATS } from '../../../../lambdas/formats/record-formats.js';
import { importChunkIo } from '../../../../lambdas/import/import-chunk-io.js';
import { runImportChunk } from '../../../../lambdas/import/import-chunk.js';
import { createContainerLogger } from '../../../../lambdas/observability/logger.js';
import { createImportMetrics } from '../../../../lambdas/observability/metrics.js';
import { planRanges } from '../../../../lambdas/preflight/range-planner.js';
import { resolveImportRequest } from '../../../../lambdas/request/resolve-request.js';
import { createWiring } from '../../../../lambdas/wiring/wiring.js';
import { createBucket, createTable, putText, s3, scanAll } from '../../../e2e/harness.js';
import { TOY_KV_FORMAT } from './toy-kv-format.js';

/** The one registration line: the toy format joins the table of source formats. */
const FORMATS = { ...SOURCE_FORMATS, 'toy-kv': TOY_KV_FORMAT };

const ROWS = 400;
/** Chunks of 1000 bytes over ~10 KB: most start inside a record, so they find their first one and finish their last. */
const CHUNK_BYTES = 1000;
const lineOf = (i: number) => `pk=k${i};n=${i * 7};note=row ${'x'.repeat(i % 13)}`;

/** The job every chunk shares, as preflight would hand it over for a one-object import. */
function toyJob(bucket: string, table: string, size: number, etag: string, chunkCount: number): ImportJob {
  // request/ checks format.type against the formats it knows: the toy one joins the resolved request afterwards.
  const request = resolveImportRequest({ bucket, key: 'toy.kv', table, types: { n: 'N' }, format: { type: 'csv' } });
  return {
    request: { ...request, format: { type: 'toy-kv' } as unknown as ResolvedFormat },
    executionName: 'toy-1',
    etag,
    sources: { folder: '', objects: [{ key: 'toy.kv', size, etag }], staging: null, exportManifest: null },
    columns: [],
    keys: [{ name: 'pk', type: 'S', role: 'HASH' }],
    maxConcurrency: 4,
    chunkCount,
    dataBytes: size,
  };
}

describe('a toy source format, registered with one line', () => {
  it('imports an object through the real ImportChunk path, item by item, its bad line rejected', async () => {
    const bucket = await createBucket();
    const table = await createTable(['pk', 'S']);
    const lines = Array.from({ length: ROWS }, (_, i) => lineOf(i));
    lines.splice(150, 0, 'not a pair', ''); // rejected, then blank (skipped)
    const body = `${lines.join('\n')}\n`;
    await putText(bucket, 'toy.kv', body);
    const { ETag } = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'toy.kv' }));
    const ranges = planRanges(CHUNK_BYTES, body.length, { offset: 0, line: 1 });
    const job = toyJob(bucket, table, body.length, ETag!, ranges.length);
    const wiring = createWiring();
    const io = importChunkIo(wiring.s3, wiring.writeTransport);
    const options = {
      config: wiring.config,
      ledger: wiring.ledger,
      context: { getRemainingTimeInMillis: () => 900_000 },
      logger: createContainerLogger(),
      metrics: createImportMetrics(),
      formats: FORMATS,
    };
    const totals = { rows: 0, written: 0, rejected: 0 };
    for (const [chunkIndex, range] of ranges.entries()) {
      let progress: ChunkProgress | undefined;
      do {
        const event = { job, chunk: { object: 0, ...range }, chunkIndex, ...(progress ? { progress } : {}) };
        progress = await runImportChunk(event, io, options);
      } while (progress.next !== null);
      for (const field of ['rows', 'written', 'rejected'] as const) totals[field] += progress[field];
    }
    expect(ranges.length).toBeGreaterThan(5);
    expect(totals).toEqual({ rows: ROWS + 1, written: ROWS, rejected: 1 });
    const landed = (await scanAll(table)).sort((a, b) => Number(a.n.N) - Number(b.n.N));
    expect(landed).toEqual(
      Array.from({ length: ROWS }, (_, i) => ({
        pk: { S: `k${i}` },
        n: { N: String(i * 7) },
        note: { S: `row ${'x'.repeat(i % 13)}` },
      })),
    );
  });
});
