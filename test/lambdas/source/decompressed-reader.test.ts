import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decompressedFrom } from '../../../lambdas/source/decompressed-reader.js';

const WHERE = 's3://b/x.csv.gz';

/** Streams `data` in `piece`-byte buffers, as a range GET's body arrives. */
async function* pieces(data: Buffer, piece = 7): AsyncGenerator<Buffer> {
  for (let at = 0; at < data.length; at += piece) yield data.subarray(at, at + piece);
}

async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const buf of stream) parts.push(buf);
  return Buffer.concat(parts);
}

/** 2,000 lines of text, multi-byte characters included. */
const TEXT = Buffer.from(Array.from({ length: 2000 }, (_, i) => `row ${i},café,東京\n`).join(''));

describe('decompressedFrom', () => {
  it('reads a multi-member gzip (as pigz and bgzip write it) as one stream', async () => {
    // Three members compressed separately and concatenated: gunzip must not stop after the first.
    const thirds = [TEXT.subarray(0, 1000), TEXT.subarray(1000, 30_000), TEXT.subarray(30_000)];
    const multi = Buffer.concat(thirds.map((part) => gzipSync(part)));
    const stream = decompressedFrom(pieces(multi), 'gzip', { offset: 0, line: 1 }, WHERE);
    expect((await collect(stream)).equals(TEXT)).toBe(true);
    expect(stream.damage).toBeNull();
  });

  it('skips to a decompressed offset: resuming decompresses again from the start', async () => {
    const offset = TEXT.indexOf('row 1500,');
    const stream = decompressedFrom(pieces(gzipSync(TEXT), 1000), 'gzip', { offset, line: 1501 }, WHERE);
    expect((await collect(stream)).equals(TEXT.subarray(offset))).toBe(true);
  });

  it('keeps a last line without a line feed', async () => {
    const stream = decompressedFrom(pieces(gzipSync(Buffer.from('a\nb'))), 'gzip', { offset: 0, line: 1 }, WHERE);
    expect((await collect(stream)).toString()).toBe('a\nb');
  });

  it('on truncated data, ends at the last whole line before the cut and says where', async () => {
    const gz = gzipSync(TEXT);
    const stream = decompressedFrom(
      pieces(gz.subarray(0, Math.floor(gz.length / 2)), 100),
      'gzip',
      { offset: 0, line: 1 },
      WHERE,
    );
    const read = await collect(stream);
    // Only whole lines, each as in the original: no short record is ever passed on.
    expect(read.length).toBeGreaterThan(0);
    expect(read.at(-1)).toBe(0x0a);
    expect(read.equals(TEXT.subarray(0, read.length))).toBe(true);
    const lines = read.toString().split('\n').length - 1;
    expect(stream.damage).toEqual({ offset: read.length, line: 1 + lines, message: 'unexpected end of file' });
  });

  it('on corrupt data, ends at a line end and says where the decompressor gave up', async () => {
    // gzip checks its CRC only at the end of a member: deflate data damaged mid-way usually stops decoding at
    // once (invalid codes), but may first decode to wrong bytes. What was passed on still ends on a line end.
    const gz = gzipSync(TEXT);
    const spoiled = Buffer.concat([gz.subarray(0, 2000), Buffer.alloc(64, 0xff), gz.subarray(2064)]);
    const stream = decompressedFrom(pieces(spoiled, 100), 'gzip', { offset: 0, line: 1 }, WHERE);
    const read = await collect(stream);
    if (read.length > 0) expect(read.at(-1)).toBe(0x0a);
    expect(stream.damage).toMatchObject({ offset: read.length, message: expect.stringMatching(/invalid|incorrect/) });
  });

  it('on a damaged CRC, fails after the whole lines it decoded', async () => {
    const gz = Buffer.from(gzipSync(TEXT));
    gz[gz.length - 6] ^= 0xff; // the CRC32 in the member trailer
    const stream = decompressedFrom(pieces(gz, 100), 'gzip', { offset: 0, line: 1 }, WHERE);
    const read = await collect(stream);
    expect(read.equals(TEXT.subarray(0, read.length))).toBe(true);
    expect(stream.damage).toMatchObject({ offset: read.length, message: 'incorrect data check' });
  });

  it('fails with the error of the object itself (a changed or missing object is not damage)', async () => {
    async function* failing() {
      yield gzipSync(TEXT).subarray(0, 500);
      throw Object.assign(new Error('changed'), { name: 'SourceObjectChangedError' });
    }
    const stream = decompressedFrom(failing(), 'gzip', { offset: 0, line: 1 }, WHERE);
    await expect(collect(stream)).rejects.toMatchObject({ name: 'SourceObjectChangedError' });
    expect(stream.damage).toBeNull();
  });
});
