import * as zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import { UnsupportedCompressionError } from '../contract/errors.js';

/** How an object's bytes are stored. Compressed objects cannot be range-read: they are decompressed from the start. */
export type Compression = 'none' | 'gzip' | 'zstd';

/**
 * The compression an object's key says: `.gz` (and `.gzip`) gzip, `.zst` (and `.zstd`) zstd, anything else none.
 * A request's `format.compression` (`override`) wins over it. Preflight resolves it once per object per invocation
 * (preflight/planning-inputs.ts).
 */
export function compressionOf(key: string, override?: Compression): Compression {
  if (override) return override;
  if (/\.gz(ip)?$/i.test(key)) return 'gzip';
  if (/\.zst(d)?$/i.test(key)) return 'zstd';
  return 'none';
}

/**
 * Node.js added zstd to node:zlib (`zlib.createZstdDecompress`, experimental) in v22.15.0 and v23.8.0
 * (https://nodejs.org/api/zlib.html#zlibcreatezstddecompressoptions). Lambda's nodejs22.x runtime follows the
 * 22.x line; a runtime without it (Node 20, for one) refuses zstd objects by name instead of failing mid-import.
 */
export const ZSTD_MIN_NODE_VERSION = '22.15.0';

type ZstdFactory = () => Transform;

/** `zlib.createZstdDecompress` where this Node has it (typed loosely: @types/node 20 does not declare it). */
function zstdFactory(): ZstdFactory | undefined {
  const factory = (zlib as unknown as Record<string, unknown>).createZstdDecompress;
  return typeof factory === 'function' ? (factory as ZstdFactory) : undefined;
}

/** Whether this runtime can decompress `compression`; throws UnsupportedCompressionError naming the object if not. */
export function checkDecompressible(compression: Compression, where: string, version = process.versions.node): void {
  if (compression === 'zstd' && zstdFactory() === undefined) {
    throw new UnsupportedCompressionError(
      `${where} is zstd-compressed: decompressing it needs Node.js ${ZSTD_MIN_NODE_VERSION} or later ` +
        `(zlib.createZstdDecompress), and this runtime is Node.js ${version}`,
    );
  }
}

/** Decompressed output comes in buffers of this size (zlib's default is 16 KiB): fewer, larger hand-overs. */
const OUTPUT_CHUNK_BYTES = 64 * 1024;

/**
 * A streaming decompressor. gzip: `createGunzip` reads every member of a multi-member file (as pigz and bgzip
 * write them) as one stream; zstd: concatenated frames likewise.
 */
export function createDecompressor(compression: Exclude<Compression, 'none'>, where: string): Transform {
  if (compression === 'gzip') return zlib.createGunzip({ chunkSize: OUTPUT_CHUNK_BYTES });
  checkDecompressible(compression, where);
  return zstdFactory()!();
}
