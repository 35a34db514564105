import type { Checkpoint, Chunk, ImportJob } from '../contract/workflow-payloads.js';
import { compressionOf, type Compression } from '../source/compression.js';
import { decompressedFrom, type Damage } from '../source/decompressed-reader.js';
import { readRange, type SendGetObject } from '../source/s3-range-reader.js';
import { objectKey, s3Url, sourceObject } from '../source/source-set.js';
import { stagedPieceKey } from '../source/staged-piece.js';

/** How one chunk's bytes are read, and what is left to do once they are. */
export interface ChunkReader {
  /** The chunk as the importer walks it: a whole compressed object reads to the end of its data. */
  readonly chunk: Chunk;
  /** Streams the chunk's data [start, end), in the object's (decompressed) offsets. */
  readonly read: (start: number, end: number) => AsyncIterable<Buffer>;
  /** The object's full key and `s3://` name, for rejects, errors and logs. */
  readonly key: string;
  readonly where: string;
  readonly compression: Compression;
  /** The staged piece this chunk reads (deleted once the chunk is imported), or null. */
  readonly stagedPiece: string | null;
  /** Once read: where a compressed object's data ended in damage, or null. */
  damage(): Damage | null;
}

/**
 * The read path of a chunk, by its object:
 * - plain: range GETs of [start, end) with IfMatch: the object's ETag;
 * - staged: range GETs of the staged piece, which holds exactly [start, end) of the decompressed data. The
 *   piece is this execution's own (written by its preflight under its name, never replaced), so its GETs carry
 *   no ETag; the source's ETag was checked when it was staged;
 * - compressed: the whole object, GET with IfMatch and decompressed from the start; a checkpoint's offset is in
 *   the decompressed data, so resuming decompresses again and skips to it.
 */
export function chunkReader(job: ImportJob, chunk: Chunk, from: Checkpoint, getObject: SendGetObject): ChunkReader {
  const { bucket } = job.request;
  const { sources } = job;
  const entry = sources.objects[chunk.object];
  const key = objectKey(sources, chunk.object);
  const where = s3Url(bucket, key);
  const compression = compressionOf(entry.key, job.request.format.compression);
  const source = sourceObject(bucket, sources, chunk.object);
  const common = { key, where, compression, damage: () => null };
  if (compression === 'none') {
    return { ...common, chunk, stagedPiece: null, read: (start, end) => readRange(getObject, source, start, end) };
  }
  if (entry.staged) {
    const piece = stagedPieceKey(sources.staging!, chunk.object, chunk.start);
    const pieceSource = { bucket, key: piece, etag: '' };
    const read = (start: number, end: number) =>
      readRange(getObject, pieceSource, start - chunk.start, end - chunk.start);
    return { ...common, chunk, stagedPiece: piece, read };
  }
  let stream: ReturnType<typeof decompressedFrom> | null = null;
  return {
    ...common,
    chunk: { ...chunk, end: Number.MAX_SAFE_INTEGER },
    stagedPiece: null,
    read: (start) =>
      (stream = decompressedFrom(
        readRange(getObject, source, 0, entry.size),
        compression,
        { offset: start, line: from.line },
        where,
      )),
    damage: () => stream?.damage ?? null,
  };
}
