import { describe, expect, it } from 'vitest';
import { outOfTimeAfter } from '../../cli/local-run/runner.js';
import { generateQuotedCsv } from '../fixtures/quoted-csv.js';
import { expectChunksResumed } from './chunk-invocations.js';
import { createBucket, createTable, putText, runImport, scanAll } from './harness.js';

/**
 * Clock reads each ImportChunk invocation gets (cli/local-run/lambda-clock.ts): two set its margin and timer, so
 * its first deadline check (at record 25, or the end of a shorter first block) stops it. A 16 KiB chunk holds
 * ~160 records (~104 bytes each), so each takes six or more invocations on any machine.
 */
const IMPORT_READS = 2;

/**
 * A CSV whose quoted fields hold commas, doubled quotes and newlines (LF and CRLF), with a BOM and a
 * CRLF header. 3,000 records (~310 KB) in chunks of 16 KiB: ~19 nominal cut points, and one record in
 * ten spans 40+ lines, so several cuts fall inside multi-line records and must move past them.
 */
describe('importing a quoted CSV with multi-line records', () => {
  it('lands every record exactly once, lanes finding their own first record past multi-line ones', async () => {
    const { text, rows, offsets } = generateQuotedCsv(3000);
    const bucket = await createBucket();
    await putText(bucket, 'data/quoted.csv', text);
    const table = await createTable(['id', 'S']);
    const chunkMiB = 16 / 1024;

    const run = await runImport(
      { bucket, key: 'data/quoted.csv', table, types: { seq: 'N', flag: 'BOOL' }, chunkMiB },
      { clocks: { Preflight: outOfTimeAfter(1), ImportChunk: outOfTimeAfter(IMPORT_READS) }, maxConcurrency: 8 },
    );

    expect(run.summary).toMatchObject({ status: 'SUCCEEDED', rows: 3000, written: 3000, rejected: 0 });
    // Preflight read the header only and cut byte ranges from the size: one call, however short its clock.
    expect(run.preflightCalls).toHaveLength(1);
    const bytes = Buffer.from(text);
    const chunkBytes = Math.round(chunkMiB * 1024 * 1024);
    expect(run.chunks.map((c) => c.start)).toEqual(run.chunks.map((_, k) => offsets[0] + k * chunkBytes));
    expect(run.chunks.slice(1).every((c) => c.line === undefined)).toBe(true);
    // Chunks were imported over checkpoints, each invocation resuming at the record start (past multi-line
    // records) and line where the one before stopped; each lane began at its first own record.
    const layout = { bytes, boundaries: offsets, rowStarts: offsets };
    const invocations = expectChunksResumed(run.events, run.chunks, layout);
    expect(Math.min(...invocations.slice(0, -1))).toBeGreaterThanOrEqual(2); // the last chunk may be short
    // At least one range starts inside a quoted field holding newlines, so its lane had to learn the quote state.
    const startsInsideMultiLine = run.chunks.some((chunk) => {
      const i = offsets.findIndex((o, k) => o <= chunk.start && (offsets[k + 1] ?? Infinity) > chunk.start);
      return i >= 0 && rows[i].text.includes('\n') && chunk.start > offsets[i] + rows[i].id.length + 3;
    });
    expect(startsInsideMultiLine).toBe(true);
    expect(bytes.length).toBeGreaterThan(0);

    const items = await scanAll(table);
    expect(items).toHaveLength(rows.length);
    const byId = new Map(items.map((item) => [item.id.S, item]));
    for (const row of rows) {
      expect(byId.get(row.id)).toEqual({
        id: { S: row.id },
        seq: { N: String(row.seq) },
        text: { S: row.text },
        ...(row.note === '' ? {} : { note: { S: row.note } }),
        flag: { BOOL: row.flag },
      });
    }
  }, 180_000);
});
