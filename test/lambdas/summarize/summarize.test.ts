import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createSummarizeFunctionHandler } from '../../../lambdas/summarize/handler.js';
import { summarize, totalsByObject } from '../../../lambdas/summarize/summarize.js';
import { chunkResultArray } from '../../support/chunk-results.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import type { ChunkResult, ImportSummary, SummarizeEvent } from '../../../lambdas/contract/workflow-payloads.js';
import type { LambdaConfig } from '../../../lambdas/environment/config.js';
import type { Wiring } from '../../../lambdas/wiring/wiring.js';

const ETAG = '"0123456789abcdef0123456789abcdef"';

/**
 * A prefix import of two objects under `imports/`: a.csv in chunks 0 and 1, b.csv in chunk 2. The Map's
 * results come back in the order chunks finish, not in chunk order.
 */
function event(chunkResults: ChunkResult[], source: { key: string } | { prefix: string } = { prefix: 'imports/' }) {
  const value: SummarizeEvent = {
    request: resolveImportRequest({ bucket: 'bucket', table: 'table', ...source }),
    executionName: 'exec-1',
    object: { size: 300, etag: ETAG },
    chunkResults: chunkResults.map(chunkResultArray),
    chunks: [
      { object: 0, start: 10, end: 100, line: 2 },
      { object: 0, start: 100, end: 200, line: 40 },
      { object: 1, start: 10, end: 110, line: 2 },
    ],
    sources: {
      folder: 'imports/',
      objects: [
        { key: 'a.csv', size: 200, etag: ETAG },
        { key: 'b.csv', size: 110, etag: ETAG },
      ],
      staging: null,
      exportManifest: null,
    },
  };
  return value;
}

/** A chunk's result of a put import: rows, written, rejected (and for a key repeated in a batch, one skipped). */
function result(chunk: number, rows: number, written: number, rejected: number): ChunkResult {
  return {
    chunk,
    rows,
    written,
    rejected,
    skipped: rows - written - rejected,
    deleted: 0,
    writeUnits: 0,
    added: 0,
    changed: 0,
    unchanged: 0,
  };
}

/** Chunk 1 has a key repeated inside a batch (50 rows, 49 written); chunks 0 and 2 have rejects. */
const WITH_REJECTS: ChunkResult[] = [result(2, 30, 29, 1), result(0, 40, 38, 2), result(1, 50, 49, 0)];
const CLEAN: ChunkResult[] = [result(1, 50, 50, 0), result(0, 40, 40, 0), result(2, 30, 30, 0)];

describe.each<{ name: string; results: ChunkResult[]; totals: Partial<ImportSummary> }>([
  // Sums over every result: rows 30+40+50, written 29+38+49, rejected 1+2+0; rejects make the status and key.
  {
    name: 'results with rejects',
    results: WITH_REJECTS,
    totals: {
      status: 'SUCCEEDED_WITH_REJECTS',
      rows: 120,
      written: 116,
      rejected: 3,
      chunks: 3,
      rejectsKey: 'rejects/exec-1/',
      reportKey: 'rejects/exec-1/report.json',
    },
  },
  // No rejected row: plain success, and no rejects key to send a user looking for files that do not exist.
  {
    name: 'results without rejects',
    results: CLEAN,
    totals: {
      status: 'SUCCEEDED',
      rows: 120,
      written: 120,
      rejected: 0,
      chunks: 3,
      rejectsKey: null,
      reportKey: 'rejects/exec-1/report.json',
    },
  },
  // An import with no chunk (every object empty past its header): zeros, and a report all the same.
  {
    name: 'no chunk results',
    results: [],
    totals: {
      status: 'SUCCEEDED',
      rows: 0,
      written: 0,
      rejected: 0,
      chunks: 0,
      rejectsKey: null,
      reportKey: 'rejects/exec-1/report.json',
    },
  },
])('summarize over $name', ({ results, totals }) => {
  it('totals the counts, status and keys', () => {
    expect(summarize(event(results), 'rejects')).toMatchObject(totals);
  });
});

describe('summarize names the import', () => {
  it('by its prefix, for a prefix request', () => {
    expect(summarize(event(CLEAN), 'rejects')).toMatchObject({
      bucket: 'bucket',
      key: 'imports/',
      prefix: 'imports/',
      objects: 2,
      table: 'table',
    });
  });

  it('by its key, with prefix null, for a one-key request', () => {
    expect(summarize(event(CLEAN, { key: 'imports/a.csv' }), 'rejects')).toMatchObject({
      key: 'imports/a.csv',
      prefix: null,
    });
  });

  it('puts rejects and report under <rejectsPrefix>/<execution>/, one slash whatever the prefix ends with', () => {
    const summary = summarize(event(WITH_REJECTS), 'team/rejects//');
    expect([summary.rejectsKey, summary.reportKey]).toEqual([
      'team/rejects/exec-1/',
      'team/rejects/exec-1/report.json',
    ]);
  });
});

describe('totalsByObject', () => {
  it('adds each chunk result to the object its chunk reads, whatever order the results come in', () => {
    // a.csv: chunks 0 and 1 (40+50 rows, 38+49 written, 2+0 rejected); b.csv: chunk 2.
    expect(totalsByObject(event(WITH_REJECTS))).toEqual([
      {
        key: 'imports/a.csv',
        chunks: 2,
        rows: 90,
        written: 87,
        rejected: 2,
        skipped: 1,
        deleted: 0,
        writeUnits: 0,
        added: 0,
        changed: 0,
        unchanged: 0,
      },
      {
        key: 'imports/b.csv',
        chunks: 1,
        rows: 30,
        written: 29,
        rejected: 1,
        skipped: 0,
        deleted: 0,
        writeUnits: 0,
        added: 0,
        changed: 0,
        unchanged: 0,
      },
    ]);
  });

  it('lists every object, with zeros for one no result came from', () => {
    expect(totalsByObject(event([]))).toEqual([
      {
        key: 'imports/a.csv',
        chunks: 0,
        rows: 0,
        written: 0,
        rejected: 0,
        skipped: 0,
        deleted: 0,
        writeUnits: 0,
        added: 0,
        changed: 0,
        unchanged: 0,
      },
      {
        key: 'imports/b.csv',
        chunks: 0,
        rows: 0,
        written: 0,
        rejected: 0,
        skipped: 0,
        deleted: 0,
        writeUnits: 0,
        added: 0,
        changed: 0,
        unchanged: 0,
      },
    ]);
  });

  it('fails when a chunk result names a chunk the chunk list does not hold', () => {
    // Rather than leave the result's rows out of every object's total.
    expect(() => totalsByObject(event([result(3, 1, 1, 0)]))).toThrow();
  });

  it('fails when a chunk names an object the source set does not hold', () => {
    const bad = { ...event(CLEAN), chunks: [{ object: 2, start: 0, end: 10, line: 1 }] };
    expect(() => totalsByObject({ ...bad, chunkResults: [chunkResultArray(result(0, 1, 1, 0))] })).toThrow();
  });
});

/**
 * The handler's wiring: an S3 client whose `send` records each command, and a ledger that records the executions
 * whose lanes were given back (the handler uses only s3, config and the ledger's release).
 */
function recordingWiring(send: (command: { input: unknown }) => Promise<unknown> = async () => ({})) {
  const sent: { input: Record<string, unknown> }[] = [];
  const released: string[] = [];
  const ledger = { release: async (execution: string) => void released.push(execution) };
  const s3 = {
    send: (command: { input: Record<string, unknown> }) => {
      sent.push(command);
      return send(command);
    },
  } as unknown as S3Client;
  const config: LambdaConfig = { rejectsPrefix: 'rejects', allowedTables: null };
  return { wiring: { s3, config, ledger } as unknown as Wiring, sent, released };
}

describe('the Summarize handler', () => {
  it('returns the summary of the event', async () => {
    const { wiring } = recordingWiring();
    const input = event(WITH_REJECTS);
    expect(await createSummarizeFunctionHandler(wiring)(input)).toEqual(summarize(input, 'rejects'));
  });

  it('writes one JSON report at the report key: summary, execution, per-object totals, results', async () => {
    const { wiring, sent } = recordingWiring();
    const input = event(WITH_REJECTS);
    await createSummarizeFunctionHandler(wiring)(input);
    expect(sent).toHaveLength(1);
    const { Bucket, Key, ContentType, Body } = sent[0].input;
    expect({ Bucket, Key, ContentType }).toEqual({
      Bucket: 'bucket',
      Key: 'rejects/exec-1/report.json',
      ContentType: 'application/json',
    });
    expect(JSON.parse(Body as string)).toEqual({
      ...summarize(input, 'rejects'),
      executionName: 'exec-1',
      object: { size: 300, etag: ETAG },
      objects: totalsByObject(input),
      chunkResults: WITH_REJECTS,
    });
  });

  it('writes the report of an import with no chunk, with zero totals', async () => {
    const { wiring, sent } = recordingWiring();
    await createSummarizeFunctionHandler(wiring)(event([]));
    expect(JSON.parse(sent[0].input.Body as string)).toMatchObject({ rows: 0, chunks: 0, chunkResults: [] });
  });

  it('fails when a chunk result names a chunk the list does not hold, and writes no report', async () => {
    const { wiring, sent } = recordingWiring();
    const bad = event([result(7, 1, 1, 0)]);
    await expect(createSummarizeFunctionHandler(wiring)(bad)).rejects.toThrow();
    expect(sent).toHaveLength(0);
  });

  it('gives the lanes back once the report is written, and not when it could not be', async () => {
    const { wiring, sent, released } = recordingWiring();
    await createSummarizeFunctionHandler(wiring)(event(CLEAN));
    expect(sent).toHaveLength(1);
    expect(released).toEqual(['exec-1']);
    const failing = recordingWiring(async () => {
      throw new Error('Access Denied');
    });
    await expect(createSummarizeFunctionHandler(failing.wiring)(event(CLEAN))).rejects.toThrow();
    expect(failing.released).toEqual([]);
  });

  it('only gives the lanes back when asked by ReleaseLanes (a failed import): no report', async () => {
    const { wiring, sent, released } = recordingWiring();
    expect(await createSummarizeFunctionHandler(wiring)({ releaseLanes: 'exec-9' })).toEqual({ released: 'exec-9' });
    expect(released).toEqual(['exec-9']);
    expect(sent).toEqual([]);
  });

  // One Lambda serves both Task states (lib/workflow-tasks.ts): it tells their events apart by `releaseLanes`.
  it('runs the handler of the task whose event the Summarize function gets', async () => {
    const { wiring, sent, released } = recordingWiring();
    const summarizeFunction = createSummarizeFunctionHandler(wiring);
    expect(await summarizeFunction({ releaseLanes: 'exec-9' })).toEqual({ released: 'exec-9' });
    expect(sent).toEqual([]);
    expect(await summarizeFunction(event(CLEAN))).toEqual(summarize(event(CLEAN), 'rejects'));
    expect(sent).toHaveLength(1);
    expect(released).toEqual(['exec-9', 'exec-1']);
  });

  it('fails when the report cannot be written: the S3 error fails the task', async () => {
    const denied = Object.assign(new Error('Access Denied'), { name: 'AccessDenied' });
    const { wiring } = recordingWiring(async () => {
      throw denied;
    });
    await expect(createSummarizeFunctionHandler(wiring)(event(CLEAN))).rejects.toBe(denied);
  });
});

describe('the Map results as ChunkImported leaves them', () => {
  it('reads the counts arrays as the named results they stand for', () => {
    const arrays = WITH_REJECTS.map((r) => [
      r.chunk,
      r.rows,
      r.written,
      r.rejected,
      r.skipped,
      r.deleted,
      r.writeUnits,
      r.added,
      r.changed,
      r.unchanged,
    ]);
    const named = summarize(event(WITH_REJECTS), 'rejects');
    expect(summarize({ ...event(WITH_REJECTS), chunkResults: arrays }, 'rejects')).toEqual(named);
    expect(totalsByObject({ ...event(WITH_REJECTS), chunkResults: arrays })).toEqual(
      totalsByObject(event(WITH_REJECTS)),
    );
  });

  it('fails when a result is not an array of all the counts', () => {
    expect(() => summarize({ ...event(CLEAN), chunkResults: [[0, 1, 1]] }, 'rejects')).toThrow(/Map result 0/);
  });
});
