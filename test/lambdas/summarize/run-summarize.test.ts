import { describe, expect, it } from 'vitest';
import {
  NO_IMPORT_COUNTS,
  type ChunkResult,
  type SummarizeEvent,
} from '../../../lambdas/contract/workflow-payloads.js';
import { createContainerLogger } from '../../../lambdas/observability/logger.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import { chunkResultArray } from '../../support/chunk-results.js';
import { runReleaseLanes, runSummarize, type SummarizeIo } from '../../../lambdas/summarize/summarize.js';

/** A scripted I/O: it records each call in order and fails the calls `failing` names. */
function scriptedIo(failing: readonly (keyof SummarizeIo)[] = []) {
  const calls: unknown[][] = [];
  const call =
    (name: keyof SummarizeIo) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args]);
      if (failing.includes(name)) throw new Error(`${name} failed`);
    };
  const io: SummarizeIo = {
    makeRejectsAbsolute: call('makeRejectsAbsolute'),
    putReport: call('putReport'),
    releaseLanes: call('releaseLanes'),
  };
  return { io, calls };
}

const OPTIONS = { rejectsPrefix: 'rejects', logger: createContainerLogger(), context: {} };

/** One object in two chunks; chunk 1 was cut from the object's size alone, so it has no `line` of its own. */
function event(results: ChunkResult[], line1?: number): SummarizeEvent {
  return {
    request: resolveImportRequest({ bucket: 'bucket', table: 'table', key: 'in.csv' }),
    executionName: 'exec-1',
    object: { size: 200, etag: '"e"' },
    chunkResults: results.map(chunkResultArray),
    chunks: [
      { object: 0, start: 10, end: 100, line: 2 },
      { object: 0, start: 100, end: 200, ...(line1 === undefined ? {} : { line: line1 }) },
    ],
    sources: { folder: '', objects: [{ key: 'in.csv', size: 200, etag: '"e"' }], staging: null, exportManifest: null },
  };
}

function result(chunk: number, rows: number, rejected: number): ChunkResult {
  return { ...NO_IMPORT_COUNTS, chunk, rows, written: rows - rejected, rejected };
}

describe('runSummarize', () => {
  it('writes the report, then gives the lanes back, and returns the totals (rows 5 + 7, rejected 0 + 1)', async () => {
    const { io, calls } = scriptedIo();
    const summary = await runSummarize(event([result(0, 5, 0), result(1, 7, 1)], 40), io, OPTIONS);
    expect(summary).toMatchObject({ rows: 12, written: 11, rejected: 1, reportKey: 'rejects/exec-1/report.json' });
    expect(calls.map(([name]) => name)).toEqual(['putReport', 'releaseLanes']);
    const [, bucket, key, body] = calls[0] as [string, string, string, string];
    expect({ bucket, key }).toEqual({ bucket: 'bucket', key: 'rejects/exec-1/report.json' });
    expect(JSON.parse(body)).toMatchObject({
      rows: 12,
      executionName: 'exec-1',
      objects: [{ key: 'in.csv', rows: 12 }],
    });
    expect(calls[1]).toEqual(['releaseLanes', 'exec-1']);
  });

  it('rewrites the rejects of a chunk that counted lines from its own first record, before the report', async () => {
    const { io, calls } = scriptedIo();
    const input = event([result(0, 5, 0), result(1, 7, 1)]);
    await runSummarize(input, io, OPTIONS);
    expect(calls.map(([name]) => name)).toEqual(['makeRejectsAbsolute', 'putReport', 'releaseLanes']);
    expect(calls[0]).toEqual(['makeRejectsAbsolute', input, 'rejects/exec-1']);
  });

  it('leaves relative files alone when the chunk without a line rejected nothing', async () => {
    const { io, calls } = scriptedIo();
    await runSummarize(event([result(0, 5, 1), result(1, 7, 0)]), io, OPTIONS);
    expect(calls.map(([name]) => name)).toEqual(['putReport', 'releaseLanes']);
  });

  it('fails when the report cannot be written, and keeps the lanes (the workflow retries Summarize)', async () => {
    const { io, calls } = scriptedIo(['putReport']);
    await expect(runSummarize(event([result(0, 5, 0)], 40), io, OPTIONS)).rejects.toThrow('putReport failed');
    expect(calls.map(([name]) => name)).toEqual(['putReport']);
  });
});

describe('runReleaseLanes', () => {
  it("gives the failed import's lanes back and writes nothing", async () => {
    const { io, calls } = scriptedIo();
    expect(await runReleaseLanes({ releaseLanes: 'exec-9' }, io)).toEqual({ released: 'exec-9' });
    expect(calls).toEqual([['releaseLanes', 'exec-9']]);
  });
});
