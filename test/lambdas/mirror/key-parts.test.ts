import { describe, expect, it } from 'vitest';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import {
  canonicalKey,
  keyFromJson,
  keyJson,
  MAX_PARTS,
  MIN_PARTS,
  mirrorParts,
  mirrorSegments,
  partOf,
  mirrorPlanParts,
  PART_KEYS,
} from '../../../lambdas/mirror/key-parts.js';

const KEYS: KeyAttribute[] = [
  { name: 'pk', type: 'S', role: 'HASH' },
  { name: 'sk', type: 'N', role: 'RANGE' },
];

describe('partOf: FNV-1a (32-bit) modulo the parts', () => {
  // The published FNV-1a 32-bit test vectors (http://www.isthe.com/chongo/src/fnv/test_fnv.c): with 2^32 parts the
  // part is the hash itself.
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('hashes %j to %s', (text, hash) => {
    expect(partOf(text, 2 ** 32)).toBe(hash);
  });
});

describe('canonicalKey: equal keys as equal text', () => {
  it.each([
    // A number key by value: "1.0", "1" and "10e-1" are one key in DynamoDB.
    [
      { pk: { S: 'a' }, sk: { N: '1.0' } },
      { pk: { S: 'a' }, sk: { N: '10e-1' } },
    ],
    // A binary key as bytes (the SDK) or as base64 (a key line).
    [{ pk: { B: new Uint8Array([1, 2]) } }, { pk: { B: 'AQI=' } }],
  ])('%j and %j are one key', (a, b) => {
    const keys: KeyAttribute[] = 'sk' in a ? KEYS : [{ name: 'pk', type: 'B', role: 'HASH' }];
    expect(canonicalKey(a as never, keys)).toBe(canonicalKey(b as never, keys));
  });

  it('tells apart keys that only a naive join would confuse', () => {
    const two: KeyAttribute[] = [
      { name: 'pk', type: 'S', role: 'HASH' },
      { name: 'sk', type: 'S', role: 'RANGE' },
    ];
    const a = canonicalKey({ pk: { S: 'a,b' }, sk: { S: 'c' } }, two);
    expect(a).not.toBe(canonicalKey({ pk: { S: 'a' }, sk: { S: 'b,c' } }, two));
  });

  it('fails when a key attribute is missing or of another type', () => {
    expect(() => canonicalKey({ pk: { S: 'a' }, sk: { S: '1' } }, KEYS)).toThrow('key attribute sk is not of type N');
  });

  it('writes a key line and reads it back as the SDK key (B as bytes)', () => {
    const keys: KeyAttribute[] = [{ name: 'pk', type: 'B', role: 'HASH' }];
    const json = keyJson({ pk: { B: new Uint8Array([255]) } }, keys);
    expect(json).toEqual({ pk: { B: '/w==' } });
    expect(keyFromJson(json)).toEqual({ pk: { B: Buffer.from([255]) } });
  });
});

describe('mirrorParts, mirrorPlanParts and mirrorSegments: sized from the file and the table, bounded', () => {
  it.each([
    [0, MIN_PARTS, 4],
    // 10 GiB: 320 file-side parts of 32 MiB; 10 segments of 1 GiB.
    [10 * 1024 ** 3, 320, 10],
    // 1 PiB: capped, so the Maps' results stay far below 256 KiB.
    [1024 ** 5, MAX_PARTS, 1000],
  ])('a file of %d bytes: %d file-side parts, %d segments', (bytes, parts, segments) => {
    expect(mirrorParts(bytes)).toBe(parts);
    expect(mirrorSegments(bytes)).toBe(segments);
  });

  it.each([
    // 250,000 items: 5 parts of 50,000 would do; the file's 16 are kept (15,625 items a part).
    [16, 250_000, 16],
    // 1,000,000 items: 20 wanted, so 16 x 2 = 32 (31,250 a part): a multiple of the file-side parts.
    [16, 1_000_000, 32],
    // 1e9 items: 20,000 wanted, capped at the largest multiple of 16 within MAX_PARTS (992, ~1M items a part).
    [16, 1e9, 992],
    // A file bigger than its table: the file-side parts stand.
    [320, 0, 320],
  ])(
    '%d file-side parts and a table of %d items: %d parts, each under PART_KEYS while it can be',
    (fp, items, parts) => {
      const planned = mirrorPlanParts(fp, { itemCount: items, sizeBytes: 0 });
      expect(planned).toBe(parts);
      expect(planned % fp).toBe(0);
      if (parts < MAX_PARTS - fp) expect(items / planned).toBeLessThanOrEqual(PART_KEYS);
    },
  );

  it('sizes the segments from the table when it is bigger than the file', () => {
    expect(mirrorSegments(0, 10 * 1024 ** 3)).toBe(10);
  });

  it('a key in part p of the plan is in file-side part p % fileParts (what the compare reads)', () => {
    for (let i = 0; i < 500; i++) {
      const key = `["k${i}"]`;
      expect(partOf(key, 32) % 16).toBe(partOf(key, 16));
    }
  });
});
