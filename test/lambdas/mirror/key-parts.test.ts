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
  PART_FILE_BYTES,
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

describe('mirrorParts and mirrorSegments: sized from the file, bounded', () => {
  it.each([
    [0, MIN_PARTS, 4],
    // 10 GiB: 40 parts of 256 MiB; 10 segments of 1 GiB.
    [10 * 1024 ** 3, 40, 10],
    // 1 PiB: capped, so the Maps' results stay far below 256 KiB.
    [1024 ** 5, MAX_PARTS, 1000],
  ])('a file of %d bytes: %d parts, %d segments', (bytes, parts, segments) => {
    expect(mirrorParts(bytes)).toBe(parts);
    expect(mirrorSegments(bytes)).toBe(segments);
    expect(PART_FILE_BYTES).toBe(256 * 1024 * 1024);
  });
});
