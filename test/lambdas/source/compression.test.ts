import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ZSTD_MIN_NODE_VERSION, checkDecompressible, compressionOf } from '../../../lambdas/source/compression.js';
import { decompressedFrom } from '../../../lambdas/source/decompressed-reader.js';

/** Whether this Node has zstd in node:zlib (22.15+, 23.8+): the real decompression test runs only there. */
const hasZstd = typeof (zlib as unknown as Record<string, unknown>).createZstdDecompress === 'function';

async function collect(stream: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const buf of stream) parts.push(buf);
  return Buffer.concat(parts).toString('utf8');
}

async function* once(buf: Buffer) {
  yield buf;
}

describe.each([
  // The suffix decides; case does not matter; only the last suffix counts.
  { key: 'a/b/1gram-a.tsv.gz', compression: 'gzip' },
  { key: 'part-0.CSV.GZ', compression: 'gzip' },
  { key: 'x.gzip', compression: 'gzip' },
  { key: 'data/x.json.zst', compression: 'zstd' },
  { key: 'x.zstd', compression: 'zstd' },
  // Not a suffix: plain.
  { key: 'x.gz.csv', compression: 'none' },
  { key: 'gz', compression: 'none' },
])('compressionOf($key)', ({ key, compression }) => {
  it(`is ${compression}`, () => {
    expect(compressionOf(key)).toBe(compression);
  });
});

describe('zstd', () => {
  it('lets an override win over the suffix', () => {
    expect(compressionOf('x.csv', 'zstd')).toBe('zstd');
  });

  it.runIf(!hasZstd)('fails when this Node has no zstd, naming the object and the version needed', async () => {
    expect(() => checkDecompressible('zstd', 's3://b/x.zst', '20.20.2')).toThrow(
      expect.objectContaining({
        name: 'UnsupportedCompressionError',
        message: expect.stringContaining(
          `s3://b/x.zst is zstd-compressed: decompressing it needs Node.js ${ZSTD_MIN_NODE_VERSION} or later`,
        ),
      }),
    );
    const stream = decompressedFrom(once(Buffer.from('x')), 'zstd', { offset: 0, line: 1 }, 's3://b/x.zst');
    await expect(collect(stream)).rejects.toMatchObject({ name: 'UnsupportedCompressionError' });
  });

  it.runIf(hasZstd)('decompresses concatenated zstd frames as one stream', async () => {
    const compress = (zlib as unknown as Record<string, (b: Buffer) => Buffer>).zstdCompressSync;
    const data = Buffer.concat([compress(Buffer.from('a,b\n1,2\n')), compress(Buffer.from('3,4\n'))]);
    expect(await collect(decompressedFrom(once(data), 'zstd', { offset: 0, line: 1 }, 's3://b/x.zst'))).toBe(
      'a,b\n1,2\n3,4\n',
    );
  });
});
