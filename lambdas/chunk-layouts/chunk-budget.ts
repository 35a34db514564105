import { SourceTooLargeError } from '../contract/errors.js';
import type { Compression } from '../source/compression.js';
import { MAX_CHUNKS } from '../contract/limits.js';

const MIB = 1024 * 1024;

/**
 * What text typically shrinks to under gzip: about a quarter (CSV and JSON lines compress some 3-10x; the bench's
 * synthetic 1-gram TSV, mostly random numbers, 3.1x). Used only to guess how much work a compressed object holds
 * before it is read.
 */
export const EXPECTED_COMPRESSION_RATIO = 4;

/**
 * The threshold between "one lane per file" and "stage": a compressed object whose data is expected to exceed
 * one chunk (compressed size x 4 > chunk size, e.g. over 16 MiB of .gz at the default 64 MiB chunks) is staged,
 * so no lane is left with more than about one chunk's work while the others idle; smaller ones are imported
 * whole, one lane each, decompressed by the import (no extra S3 round trip). Staging costs one decompression in
 * preflight plus a PUT and a GET of the plain bytes, far less than writing them to DynamoDB (see docs/performance.md's
 * staging figures).
 */
export function isStaged(compression: Compression, size: number, chunkBytes: number): boolean {
  return compression !== 'none' && size * EXPECTED_COMPRESSION_RATIO > chunkBytes;
}

/**
 * A staged piece is held in preflight's memory for its PUT while the next is gathered and copied into one
 * buffer: 3 x 128 MiB fit a 1,024 MB preflight with room for the decompressor and the SDK.
 */
export const MAX_PIECE_BYTES = 128 * MIB;

export interface ChunkBudget {
  /** Target chunk size for plain objects (and the first staged pieces). */
  readonly chunkBytes: number;
  /** Chunks left for staged pieces, over all staged objects. */
  readonly stagedRoom: number;
}

/**
 * Shares the 1,000 chunks: one per whole-imported compressed object, one per plain object (its last chunk may
 * be short), and the rest between plain objects (their chunks grow past the requested size to stay within it)
 * and staged objects, whose decompressed size is unknown until staged: all of it when only staged objects need
 * it, half each otherwise.
 */
export function chunkBudget(
  requestedBytes: number,
  objects: readonly { size: number; compression: Compression; staged: boolean }[],
): ChunkBudget {
  const plain = objects.filter((o) => o.compression === 'none');
  const whole = objects.filter((o) => o.compression !== 'none' && !o.staged).length;
  const anyStaged = objects.some((o) => o.staged);
  const open = MAX_CHUNKS - whole - plain.length;
  const stagedRoom = !anyStaged ? 0 : plain.length === 0 ? open : Math.floor(open / 2);
  const plainBytes = plain.reduce((sum, o) => sum + o.size, 0);
  const chunkBytes = Math.max(1, Math.round(requestedBytes), Math.ceil(plainBytes / Math.max(1, open - stagedRoom)));
  return { chunkBytes, stagedRoom };
}

/**
 * The target size of the next staged piece: the chunk size at first, doubled each time the staged pieces use
 * half of the room left (after 1/2 of it x2, after 3/4 x4, ...), up to MAX_PIECE_BYTES. So a compressed object
 * holding far more than expected still fits in the chunk budget, in bigger pieces.
 */
export function pieceBytes(chunkBytes: number, made: number, room: number, where: string): number {
  if (made >= room) {
    throw new SourceTooLargeError(
      `${where}: staging it needs more than ${room} pieces of up to ${MAX_PIECE_BYTES / MIB} MiB ` +
        '(the chunks an import may have left): its decompressed data is too big for one import; split it into several objects',
    );
  }
  let target = chunkBytes;
  for (let threshold = room / 2; made >= threshold && target < MAX_PIECE_BYTES; threshold += (room - threshold) / 2)
    target *= 2;
  return Math.min(target, Math.max(chunkBytes, MAX_PIECE_BYTES));
}
