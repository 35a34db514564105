import { describe, expect, it } from 'vitest';
import { stageObject, type StageParams } from '../../../lambdas/chunk-layouts/stager.js';
import { scannerDialect } from '../../../lambdas/source/record-scanner.js';
import { generateQuotedCsv } from '../../fixtures/quoted-csv.js';

const CSV = scannerDialect({ delimiter: ',', quote: '"' });
/** Quoted fields with newlines inside: a piece must never end inside one. */
const DATA = Buffer.from(generateQuotedCsv(400).text);

/** Streams DATA from an offset in 1,000-byte buffers, as the decompressor would hand them over. */
async function* readFrom(offset: number) {
  for (let at = offset; at < DATA.length; at += 1000) yield DATA.subarray(at, at + 1000);
}

function stage(overrides: Partial<StageParams> & { stored: Map<string, Buffer> }) {
  const { stored, ...rest } = overrides;
  return stageObject({
    dialect: CSV,
    staging: 'stage/run-1',
    object: 3,
    from: { offset: 0, line: 1 },
    read: readFrom,
    pieceBytes: () => 4096,
    put: async (key, body) => void stored.set(key, body),
    shouldStop: () => false,
    ...rest,
  });
}

/** Record boundaries by an independent rule (well-formed CSV: every quote toggles, a LF outside quotes ends). */
function boundaries(data: Buffer): Set<number> {
  const ends = new Set<number>();
  let inQuotes = false;
  data.forEach((byte, i) => {
    if (byte === 0x22) inQuotes = !inQuotes;
    else if (byte === 0x0a && !inQuotes) ends.add(i + 1);
  });
  return ends;
}

describe('stageObject', () => {
  it('stores record-aligned pieces that hold exactly their range of the data, named by object and start', async () => {
    const stored = new Map<string, Buffer>();
    const { pieces, next } = await stage({ stored });
    expect(next).toBeNull();
    expect(pieces.length).toBeGreaterThan(3);
    const ends = boundaries(DATA);
    pieces.forEach((piece, i) => {
      expect(stored.get(`stage/run-1/3-${piece.start}`)!.equals(DATA.subarray(piece.start, piece.end))).toBe(true);
      expect(piece.start).toBe(i === 0 ? 0 : pieces[i - 1].end);
      if (piece.end < DATA.length) expect(ends.has(piece.end)).toBe(true);
      // The first record at or past 4,096 bytes in ends the piece.
      expect(piece.end - piece.start).toBeGreaterThanOrEqual(piece.end === DATA.length ? 1 : 4096);
      expect(piece.line).toBe(1 + DATA.subarray(0, piece.start).filter((b) => b === 0x0a).length);
    });
    expect(pieces.at(-1)!.end).toBe(DATA.length);
    expect(stored.size).toBe(pieces.length);
  });

  it('stops after a piece when asked, and a call from its checkpoint stages the same pieces as one long call', async () => {
    const once = await stage({ stored: new Map() });
    const stored = new Map<string, Buffer>();
    const calls: (typeof once)['pieces'][] = [];
    let from = { offset: 0, line: 1 };
    for (let call = 0; call < 100; call++) {
      const result = await stage({ stored, from, shouldStop: () => true });
      calls.push(result.pieces);
      if (!result.next) break;
      from = result.next;
    }
    expect(calls.every((pieces) => pieces.length === 1)).toBe(true); // progress on every call
    expect(calls.flat()).toEqual(once.pieces);
  });

  it('returns only pieces whose PUT finished, one PUT in flight at a time', async () => {
    const stored = new Map<string, Buffer>();
    let inFlight = 0;
    let most = 0;
    const put = async (key: string, body: Buffer) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      stored.set(key, body);
      inFlight--;
    };
    const { pieces } = await stage({ stored, put, shouldStop: () => true });
    expect(pieces).toHaveLength(1);
    expect(stored.has(`stage/run-1/3-${pieces[0].start}`)).toBe(true);
    const all = await stage({ stored, put });
    expect(all.pieces.every((p) => stored.has(`stage/run-1/3-${p.start}`))).toBe(true);
    expect(most).toBe(1);
  });

  it('fails when a PUT fails', async () => {
    const put = async () => {
      throw Object.assign(new Error('slow down'), { name: 'SlowDown' });
    };
    await expect(stage({ stored: new Map(), put })).rejects.toMatchObject({ name: 'SlowDown' });
  });

  it('grows pieces as the target it is given grows', async () => {
    const { pieces } = await stage({ stored: new Map(), pieceBytes: (made) => 2048 * 2 ** made });
    const sizes = pieces.slice(0, -1).map((p) => p.end - p.start);
    sizes.forEach((size, i) => expect(size).toBeGreaterThanOrEqual(2048 * 2 ** i));
  });
});
