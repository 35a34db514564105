import { describe, expect, it } from 'vitest';
import { MAX_PIECE_BYTES, chunkBudget, isStaged, pieceBytes } from '../../../lambdas/chunk-layouts/chunk-budget.js';
import { MAX_CHUNKS } from '../../../lambdas/contract/limits.js';

const MIB = 1024 * 1024;
const plain = (size: number) => ({ size, compression: 'none' as const, staged: false });
const whole = (size: number) => ({ size, compression: 'gzip' as const, staged: false });
const staged = (size: number) => ({ size, compression: 'gzip' as const, staged: true });

describe.each([
  // 16 MiB of .gz is expected to hold ~64 MiB: one chunk's worth at the default 64 MiB, so imported whole.
  { compression: 'gzip', size: 16 * MIB, chunkBytes: 64 * MIB, stage: false },
  // Just past it: more than a chunk's work for one lane, so staged.
  { compression: 'gzip', size: 16 * MIB + 1, chunkBytes: 64 * MIB, stage: true },
  { compression: 'zstd', size: 1 * MIB, chunkBytes: 1 * MIB, stage: true },
  // Plain objects are range-read, never staged.
  { compression: 'none', size: 10 * 1024 * MIB, chunkBytes: 1 * MIB, stage: false },
])('isStaged($compression, $size bytes, chunks of $chunkBytes)', ({ compression, size, chunkBytes, stage }) => {
  it(stage ? 'stages it' : 'does not stage it', () => {
    expect(isStaged(compression as 'gzip', size, chunkBytes)).toBe(stage);
  });
});

describe('chunkBudget', () => {
  it('keeps one plain object within 1,000 chunks: chunks grow to size / 999 (its last one may be short)', () => {
    const size = 5 * 1024 ** 4; // 5 TiB
    const { chunkBytes, stagedRoom } = chunkBudget(64 * MIB, [plain(size)]);
    expect(chunkBytes).toBe(Math.ceil(size / 999));
    expect(Math.ceil(size / chunkBytes)).toBeLessThanOrEqual(MAX_CHUNKS);
    expect(stagedRoom).toBe(0);
  });

  it('sets one chunk aside for each whole compressed object and each plain one', () => {
    // 100 whole .gz files and 400 plain ones of 1 GiB: 500 set aside, 500 for the plain ones to grow into.
    const objects = [
      ...Array.from({ length: 100 }, () => whole(MIB)),
      ...Array.from({ length: 400 }, () => plain(1024 * MIB)),
    ];
    const { chunkBytes } = chunkBudget(MIB, objects);
    expect(chunkBytes).toBe(Math.ceil((400 * 1024 * MIB) / 500));
    const chunks = 100 + 400 * Math.ceil((1024 * MIB) / chunkBytes);
    expect(chunks).toBeLessThanOrEqual(MAX_CHUNKS);
  });

  it('gives staged objects all the room when alone, half of it next to plain ones', () => {
    expect(chunkBudget(MIB, [staged(GIB()), staged(GIB())]).stagedRoom).toBe(MAX_CHUNKS);
    expect(chunkBudget(MIB, [staged(GIB()), plain(GIB()), whole(MIB)]).stagedRoom).toBe(
      Math.floor((MAX_CHUNKS - 2) / 2),
    );
  });
});

function GIB() {
  return 1024 * MIB;
}

describe('pieceBytes', () => {
  it('starts at the chunk size and doubles each time half the room left is used', () => {
    // Room 400: pieces 0-199 at x1, 200-299 x2, 300-349 x4, 350-374 x8, ...
    const sizes = [0, 199, 200, 299, 300, 349, 350].map((made) => pieceBytes(MIB, made, 400, 'x') / MIB);
    expect(sizes).toEqual([1, 1, 2, 2, 4, 4, 8]);
  });

  it(`never exceeds ${MAX_PIECE_BYTES / MIB} MiB, what preflight holds in memory`, () => {
    expect(pieceBytes(64 * MIB, 999, 1000, 'x')).toBe(MAX_PIECE_BYTES);
  });

  it('fails when staging needs more pieces than the import has chunks left, naming the object', () => {
    expect(() => pieceBytes(MIB, 400, 400, 's3://b/huge.gz')).toThrow(
      expect.objectContaining({
        name: 'SourceTooLargeError',
        message: expect.stringContaining('s3://b/huge.gz: staging it needs more than 400 pieces'),
      }),
    );
  });
});
