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
  it('lands every record exactly, with cuts moved past multi-line records', async () => {
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
    // Preflight looped (out of time at every check), and chunks were imported over checkpoints, each invocation
    // resuming at the record start (past multi-line records) and physical line where the one before stopped.
    expect(run.preflightCalls.length).toBeGreaterThan(1);
    const layout = { bytes: Buffer.from(text), boundaries: offsets, rowStarts: offsets };
    const invocations = expectChunksResumed(run.events, run.chunks, layout);
    expect(Math.min(...invocations.slice(0, -1))).toBeGreaterThanOrEqual(2); // the last chunk may be short
    // Every chunk starts on a record start, and at least one nominal cut (start + 16 KiB) fell inside
    // a record that spans lines, so the scanner had to carry the quote state across it.
    const recordStarts = new Set(offsets);
    for (const chunk of run.chunks) expect(recordStarts.has(chunk.start)).toBe(true);
    const chunkBytes = Math.round(chunkMiB * 1024 * 1024);
    const cutInsideMultiLine = run.chunks.some((chunk) => {
      const nominal = chunk.start + chunkBytes;
      const i = offsets.findIndex((o, k) => o <= nominal && (offsets[k + 1] ?? Infinity) > nominal);
      return i >= 0 && rows[i].text.includes('\n') && nominal > offsets[i] + rows[i].id.length + 3;
    });
    expect(cutInsideMultiLine).toBe(true);
    // Each chunk's line number is the physical line where its first record starts.
    for (const chunk of run.chunks) {
      expect(chunk.line).toBe(
        1 + (Buffer.from(text).subarray(0, chunk.start).toString('utf8').match(/\n/g)?.length ?? 0),
      );
    }

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
