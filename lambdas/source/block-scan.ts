import type { BlockTables } from './quote-blocks.js';

/** Bytes one step of scanBlocks covers: four four-byte blocks, one branch on record ends per 16 bytes. */
export const STEP_BYTES = 16;

/** Where record ends go: each end index (exclusive) and the LFs consumed up to it, `count` of them so far. */
export interface EndList {
  ends: Float64Array;
  linesAt: Float64Array;
  count: number;
  /** Makes both arrays longer (the entries so far kept). */
  grow(): void;
}

/** True where a 32-bit word holds its first byte in memory lowest (x86, ARM: every Lambda); the walk assumes it. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** How many bytes of `buf` come before its first 4-byte-aligned address (a Uint32Array view must be aligned). */
export function headBytes(buf: Uint8Array): number {
  return Math.min(buf.length, (4 - (buf.byteOffset & 3)) & 3);
}

/** The buffer's bytes as 32-bit words from its first aligned address on (one load for four bytes). */
export function wordView(buf: Uint8Array): Uint32Array {
  const head = headBytes(buf);
  // Shorter than one word past the head: no word (the head may be the whole buffer, and not end aligned).
  if (buf.length - head < 4) return new Uint32Array(0);
  return new Uint32Array(buf.buffer, buf.byteOffset + head, (buf.length - head) >> 2);
}

/**
 * Runs whole 16-byte steps of `buf` from `from` (an aligned address: `words` is `wordView(buf)`) while one fits,
 * from `at.state` with `at.lines` LFs consumed, adding every record end to `out`. Returns the index it stopped
 * at, with the state and LF count there in `at`: short of the last step only when `out` must grow first.
 *
 * Two `steps` lookups per 16 bytes and one branch on "a record ended" (taken about once per record); only then
 * does `addStepEnds` find where. The numbers in the loops are the table layouts of quote-blocks.ts written out
 * (0x100: "ended" of state 0, 12: the LF count; 0x3c and 2: the ends in `blocks`; 4-bit fields of `lfsUpTo`).
 */
export function scanBlocks(
  tables: BlockTables,
  buf: Uint8Array,
  words: Uint32Array,
  from: number,
  at: { state: number; lines: number },
  out: EndList,
): number {
  const { pairs, steps } = tables;
  const full = out.ends.length - STEP_BYTES; // a step holds at most 16 ends
  let { state, lines } = at;
  let count = out.count;
  let i = from;
  const last = buf.length - STEP_BYTES;
  for (let w = (i - headBytes(buf)) / 4; i <= last; i += 16, w += 4) {
    const word0 = words[w];
    const word1 = words[w + 1];
    const word2 = words[w + 2];
    const word3 = words[w + 3];
    // The class indexes of the four 4-byte blocks, from the data alone.
    const a = pairs[word0 & 0xffff] | (pairs[word0 >>> 16] << 4);
    const b = pairs[word1 & 0xffff] | (pairs[word1 >>> 16] << 4);
    const c = pairs[word2 & 0xffff] | (pairs[word2 >>> 16] << 4);
    const d = pairs[word3 & 0xffff] | (pairs[word3 >>> 16] << 4);
    const front = steps[a | (b << 8)];
    const back = steps[c | (d << 8)];
    const mid = (front >> (state << 1)) & 3;
    if ((((front >> state) | (back >> mid)) & 0x100) !== 0) {
      if (count > full) break;
      count = addStepEnds(tables, out, count, i, a, b, state, lines);
      count = addStepEnds(tables, out, count, i + 8, c, d, mid, lines + (front >> 12));
    }
    state = (back >> (mid << 1)) & 3;
    lines += (front >> 12) + (back >> 12);
  }
  at.state = state;
  at.lines = lines;
  out.count = count;
  return i;
}

/**
 * The record ends of the eight bytes at `start` (class indexes `low`, `high`), read from `state` with `lines` LFs
 * before them: one bit per byte that ended a record from `blocks`, the LFs up to each from `lfsUpTo`. Returns
 * the new count. Usually one end, stored without a loop (a loop on this path ran the whole scan at two thirds of
 * the speed).
 */
function addStepEnds(
  tables: BlockTables,
  out: EndList,
  count: number,
  start: number,
  low: number,
  high: number,
  state: number,
  lines: number,
): number {
  const { moves, blocks, lfsUpTo } = tables;
  const mid = (moves[low] >> (state << 1)) & 3;
  const bits = ((blocks[(state << 8) | low] >> 2) & 0xf) | ((blocks[(mid << 8) | high] << 2) & 0xf0);
  if (bits === 0) return count;
  // The LFs among bytes 0..k of the eight, in 4-bit field k (0-8).
  const lfsThrough = lfsUpTo[low] | ((lfsUpTo[high] + (moves[low] >> 12) * 0x1111) << 16);
  if ((bits & (bits - 1)) !== 0) return addEnds(out, count, start, bits, lfsThrough, lines);
  const k = 31 - Math.clz32(bits);
  out.ends[count] = start + k + 1;
  out.linesAt[count] = lines + ((lfsThrough >>> (k << 2)) & 0xf);
  return count + 1;
}

/** Several ends in eight bytes at `start`: `bits` has one bit per byte that ended a record. */
function addEnds(out: EndList, count: number, start: number, bits: number, lfsThrough: number, lines: number): number {
  let n = count;
  for (let rest = bits; rest !== 0; rest &= rest - 1) {
    const k = 31 - Math.clz32(rest & -rest);
    out.ends[n] = start + k + 1;
    out.linesAt[n++] = lines + ((lfsThrough >>> (4 * k)) & 0xf);
  }
  return n;
}
