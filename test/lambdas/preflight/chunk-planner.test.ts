import { describe, expect, it, vi } from 'vitest';
import { planChunks, type ByteRange, type PlanChunksParams } from '../../../lambdas/preflight/chunk-planner.js';
import type { ReadFrom } from '../../../lambdas/source/source-object.js';
import { scannerDialect } from '../../../lambdas/source/record-scanner.js';
import type { Checkpoint } from '../../../lambdas/contract/workflow-payloads.js';
import { seededRandom } from '../../fixtures/random.js';

const CSV = scannerDialect({ delimiter: ',', quote: '"' });
/** Small pieces, so that cuts, quotes and multi-byte characters fall across buffers. */
const PIECE_BYTES = 7;
const START: Checkpoint = { offset: 0, line: 1 };

/** Streams `data` from an offset in PIECE_BYTES pieces, like a range GET would. */
function readerOf(data: Buffer): ReadFrom {
  return async function* read(offset) {
    for (let at = offset; at < data.length; at += PIECE_BYTES) yield data.subarray(at, at + PIECE_BYTES);
  };
}

function plan(data: Buffer, chunkBytes: number, overrides: Partial<PlanChunksParams> = {}) {
  return planChunks({
    dialect: CSV,
    chunkBytes,
    size: data.length,
    from: START,
    read: readerOf(data),
    shouldStop: () => false,
    ...overrides,
  });
}

/**
 * An independent reference for well-formed CSV (quotes only around whole fields): every quote toggles the
 * state (`""` toggles twice), and a LF outside quotes ends a record. Returns each record's end offset.
 */
function referenceBoundaries(data: Buffer): number[] {
  const boundaries: number[] = [];
  let inQuotes = false;
  data.forEach((byte, i) => {
    if (byte === 0x22) inQuotes = !inQuotes;
    else if (byte === 0x0a && !inQuotes) boundaries.push(i + 1);
  });
  return boundaries;
}

/** LFs in data[0, end): the physical line of `end` is one more. */
const lfsBefore = (data: Buffer, end: number): number => data.subarray(0, end).filter((b) => b === 0x0a).length;

/** The documented contract, from the reference: each chunk ends at the first boundary >= start + chunkBytes. */
function expectedChunks(data: Buffer, chunkBytes: number, from: number, firstLine: number): ByteRange[] {
  const boundaries = referenceBoundaries(data);
  const chunks: ByteRange[] = [];
  for (let start = from; start < data.length;) {
    const end = boundaries.find((b) => b >= start + chunkBytes) ?? data.length;
    chunks.push({ start, end, line: firstLine + lfsBefore(data, start) - lfsBefore(data, from) });
    start = end;
  }
  return chunks;
}

/** A few hundred records with quoted newlines and commas, escaped quotes, CRLFs and multi-byte text. */
function sampleCsv(): Buffer {
  const random = seededRandom(42);
  const values = ['plain', '"two\nlines"', '"a, b"', '"say ""hi"""', 'é東京😀', '"\r\n"', '', '"""\n"""'];
  const pick = () => values[Math.floor(random() * values.length)];
  const rows = ['id,a,b'];
  for (let i = 1; i <= 300; i++) rows.push(`${i},${pick()},${pick()}`);
  return Buffer.from(rows.map((row, i) => row + (i % 5 === 0 ? '\r\n' : '\n')).join(''), 'utf8');
}

const SAMPLE = sampleCsv();
const HEADER_END = SAMPLE.indexOf('\n') + 1;

describe.each([
  // Smaller than any record: every record is its own chunk.
  { chunkBytes: 1 },
  // Smaller than a piece: several cuts inside one buffer.
  { chunkBytes: 5 },
  // A few records per chunk: targets fall inside quoted newlines and split characters.
  { chunkBytes: 64 },
  { chunkBytes: 1000 },
  // Larger than the object: one chunk.
  { chunkBytes: 1_000_000 },
])('planChunks with chunkBytes $chunkBytes', ({ chunkBytes }) => {
  it('cuts at the first record boundary at or past start + chunkBytes, with physical line numbers', async () => {
    const result = await plan(SAMPLE, chunkBytes);
    expect(result.complete).toBe(true);
    expect(result.chunks).toEqual(expectedChunks(SAMPLE, chunkBytes, 0, 1));
    const end = SAMPLE.length;
    expect(result.checkpoint).toEqual({ offset: end, line: 1 + lfsBefore(SAMPLE, end) });
  });

  it('covers [start, size) with no gap or overlap, every cut a record boundary', async () => {
    const from: Checkpoint = { offset: HEADER_END, line: 2 };
    const { chunks } = await plan(SAMPLE, chunkBytes, { from });
    const boundaries = new Set(referenceBoundaries(SAMPLE));
    expect(chunks[0].start).toBe(HEADER_END);
    expect(chunks.at(-1)!.end).toBe(SAMPLE.length);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i].start).toBe(chunks[i - 1].end);
    for (const chunk of chunks) {
      expect(boundaries.has(chunk.end)).toBe(true);
      expect(chunk.line).toBe(1 + lfsBefore(SAMPLE, chunk.start));
    }
  });

  it('gives the same chunks when stopped after every buffer and resumed from each checkpoint', async () => {
    const whole = await plan(SAMPLE, chunkBytes);
    const resumed: ByteRange[] = [];
    let from = START;
    for (let invocation = 0; invocation < 10_000; invocation++) {
      const result = await plan(SAMPLE, chunkBytes, { from, shouldStop: () => true });
      expect(result.chunks.length).toBeGreaterThan(0); // every invocation makes progress
      resumed.push(...result.chunks);
      if (result.complete) break;
      // The checkpoint is the last cut, with its line.
      const cut = result.chunks.at(-1)!.end;
      expect(result.checkpoint).toEqual({ offset: cut, line: 1 + lfsBefore(SAMPLE, cut) });
      from = result.checkpoint;
    }
    expect(resumed).toEqual(whole.chunks);
  });
});

describe('planChunks', () => {
  it('moves a cut that falls inside a quoted newline to the end of that record', async () => {
    // The target 0 + 5 falls among the x's; the LF at 7 is inside quotes, so the first cut is at 14.
    const data = Buffer.from('a,"xxxx\nyyyy"\nb,c\n');
    const { chunks } = await plan(data, 5);
    expect(chunks).toEqual([
      { start: 0, end: 14, line: 1 },
      { start: 14, end: 18, line: 3 }, // two LFs before 14: line 3
    ]);
  });

  it('makes one bigger chunk of a quoted field longer than the chunk size', async () => {
    const record = `k,"${'long\n'.repeat(100)}"\n`; // 3 + 500 + 2 = 505 bytes, 101 LFs
    const data = Buffer.from(`${record}z,1\n`);
    const { chunks } = await plan(data, 16);
    expect(chunks).toEqual([
      { start: 0, end: 505, line: 1 },
      { start: 505, end: 509, line: 102 },
    ]);
  });

  it('ends the last chunk at the object size when the last record has no newline', async () => {
    const data = Buffer.from('a,1\nb,2\nc,3');
    const { chunks } = await plan(data, 4);
    expect(chunks).toEqual([
      { start: 0, end: 4, line: 1 },
      { start: 4, end: 8, line: 2 },
      { start: 8, end: 11, line: 3 },
    ]);
  });

  it('returns no chunk and does not read when nothing remains', async () => {
    const data = Buffer.from('id\n');
    const read = vi.fn(readerOf(data));
    const from: Checkpoint = { offset: data.length, line: 2 };
    const result = await plan(data, 10, { from, read });
    expect(result).toEqual({ chunks: [], checkpoint: from, complete: true });
    expect(read).not.toHaveBeenCalled();
  });

  it('stops at the first buffer that completes a chunk, not before', async () => {
    // With 64-byte chunks and 7-byte pieces, the first cut can only come after several buffers.
    const shouldStop = vi.fn(() => true);
    const result = await plan(SAMPLE, 64, { shouldStop });
    expect(result.complete).toBe(false);
    expect(result.chunks).toEqual(expectedChunks(SAMPLE, 64, 0, 1).slice(0, result.chunks.length));
    expect(result.chunks).toHaveLength(1);
    expect(shouldStop).toHaveBeenCalledTimes(1);
  });
});
