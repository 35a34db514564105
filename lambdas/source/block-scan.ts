import type { BlockTables } from './quote-blocks.js';

/** Bytes one step of scanBlocks covers: two four-byte blocks, one branch on record ends per eight bytes. */
export const STEP_BYTES = 8;

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
 * Runs whole eight-byte steps of `buf` from `from` (an aligned address: `words` is `wordView(buf)`) while one
 * fits, from `at.state` with `at.lines` LFs consumed, adding every record end to `out`. Returns the index it
 * stopped at, with the state and LF count there in `at`: short of the last step only when `out` must grow first.
 *
 * The numbers in the loop are the table layouts of quote-blocks.ts written out (0x100: "ended" of state 0 in
 * `steps` and `moves`, 12: their LF count, 0x3c and 2: the ends in `blocks`): through tsx (tests, bench) a
 * module constant read in a loop like this one cost more than the loop itself.
 */
export function scanBlocks(
  tables: BlockTables,
  buf: Uint8Array,
  words: Uint32Array,
  from: number,
  at: { state: number; lines: number },
  out: EndList,
): number {
  const { pairs, moves, steps, blocks, lfsUpTo } = tables;
  const { ends, linesAt } = out;
  const full = ends.length - STEP_BYTES; // a step holds at most eight ends
  let { state, lines } = at;
  let count = out.count;
  let i = from;
  const last = buf.length - STEP_BYTES;
  for (let w = (i - headBytes(buf)) / 4; i <= last; i += 8, w += 2) {
    const lowWord = words[w];
    const highWord = words[w + 1];
    const low = pairs[lowWord & 0xffff] | (pairs[lowWord >>> 16] << 4);
    const high = pairs[highWord & 0xffff] | (pairs[highWord >>> 16] << 4);
    const step = steps[low | (high << 8)];
    if (((step >> state) & 0x100) !== 0) {
      if (count > full) break;
      // One bit per byte of the step that ended a record; usually one, stored here without a loop (a loop here
      // ran the whole scan at two thirds of the speed). Several go through addEnds.
      const mid = (moves[low] >> (state << 1)) & 3;
      const bits = ((blocks[(state << 8) | low] >> 2) & 0xf) | ((blocks[(mid << 8) | high] << 2) & 0xf0);
      const lfsThrough = lfsUpTo[low] | ((lfsUpTo[high] + (moves[low] >> 12) * 0x1111) << 16);
      if ((bits & (bits - 1)) !== 0) {
        count = addEnds(out, count, i, bits, lfsThrough, lines);
      } else {
        const k = 31 - Math.clz32(bits);
        ends[count] = i + k + 1;
        linesAt[count++] = lines + ((lfsThrough >>> (k << 2)) & 0xf);
      }
    }
    state = (step >> (state << 1)) & 3;
    lines += step >> 12;
  }
  at.state = state;
  at.lines = lines;
  out.count = count;
  return i;
}

/**
 * Several ends in one step at `start`: `bits` has one bit per byte that ended a record, `lfsThrough` the LFs
 * among the step's bytes 0..k in 4-bit field k.
 */
function addEnds(out: EndList, count: number, start: number, bits: number, lfsThrough: number, lines: number): number {
  let n = count;
  for (let rest = bits; rest !== 0; rest &= rest - 1) {
    const k = 31 - Math.clz32(rest & -rest);
    out.ends[n] = start + k + 1;
    out.linesAt[n++] = lines + ((lfsThrough >>> (4 * k)) & 0xf);
  }
  return n;
}
