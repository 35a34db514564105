import type { Checkpoint, Chunk, ImportChunkEvent } from '../contract/workflow-payloads.js';
import { executionOutputPrefix } from '../contract/workflow-payloads.js';
import { sourceFormatOf, type SourceFormatTable } from '../formats/record-formats.js';
import { chunkLayoutOf, type LayoutTraits } from '../contract/format-traits.js';
import { relativeRejectsKey } from '../contract/relative-rejects.js';
import { compressionOf, type Compression } from '../source/compression.js';
import type { SourceObject } from '../source/source-object.js';
import { objectKey, s3Url, sourceObject } from '../source/source-set.js';
import { stagedPieceKey } from '../source/staged-piece.js';

/**
 * Where a chunk's bytes come from:
 * - `ranges`: range GETs of the object itself, pinned to its ETag (a plain object, or Parquet);
 * - `staged-piece`: range GETs of the staged piece holding exactly [chunk.start, chunk.end) of the decompressed
 *   data; the piece is this execution's own (never replaced), so its GETs carry no ETag (the source's was checked
 *   when it was staged), and it is deleted once the chunk is imported;
 * - `decompressed`: the whole object, GET with IfMatch and decompressed from its start; a checkpoint's offset is in
 *   the decompressed data, so resuming decompresses again and skips to it.
 */
export type ChunkSource =
  | { readonly kind: 'ranges'; readonly object: SourceObject }
  | { readonly kind: 'staged-piece'; readonly piece: SourceObject }
  | {
      readonly kind: 'decompressed';
      readonly object: SourceObject;
      readonly compression: Exclude<Compression, 'none'>;
    };

/**
 * Where reading stops:
 * - `chunk-end`: at `end`, a record boundary (a staged piece; Parquet: the row groups that start before it);
 * - `last-record-past-end`: the records that start before `end`, the last one finished past it, up to the object's
 *   `size` (a plain object's byte range: see Chunk);
 * - `data-end`: where the decompressed data ends (a compressed object read whole: its size is unknown until read).
 */
export type ReadEnd =
  | { readonly kind: 'chunk-end'; readonly end: number }
  | { readonly kind: 'last-record-past-end'; readonly end: number; readonly size: number }
  | { readonly kind: 'data-end' };

/**
 * Where this invocation starts: `at` a known record boundary (the checkpoint, or the chunk's first record when
 * preflight knows its line), or at the first record that starts at or after `offset` (a byte range's first
 * invocation: byte-range.ts finds it, and numbers it line 1).
 */
export type InvocationStart =
  { readonly kind: 'at'; readonly at: Checkpoint } | { readonly kind: 'first-record-from'; readonly offset: number };

/** How this invocation's rejects file is named (rejectsKey). */
export interface RejectsNaming {
  /** The bucket rejects (and staged pieces) are in: the stack's (request/deployment-scope.ts outputBucketOf). */
  readonly bucket: string;
  /** `<rejectsPrefix>/<execution>`. */
  readonly folder: string;
  /** `<object index>-` with several objects (offsets repeat across objects), else "". */
  readonly objectPrefix: string;
  /** The start's line joins its offset: a Parquet checkpoint inside a row group keeps the group's offset. */
  readonly withLine: boolean;
  /** The chunk index when its lines are relative (Summarize renames the file: relative-rejects.ts), else null. */
  readonly relativeChunk: number | null;
}

/** What one ImportChunk invocation reads and how, worked out once from its event; every step reads it from here. */
export interface ChunkPlan {
  readonly chunk: Chunk;
  /** The name of the chunk's layout (FormatTraits.layout), as logs and tests read it. */
  readonly layout: string;
  /** The object's full key and `s3://` name, for rejects, errors and logs. */
  readonly key: string;
  readonly where: string;
  /** The object's size in S3 (compressed size for a compressed object). */
  readonly size: number;
  readonly compression: Compression;
  readonly source: ChunkSource;
  readonly readEnd: ReadEnd;
  readonly start: InvocationStart;
  /**
   * `absolute`: lines count in the object (the chunk knows its first line); `relative`: from the range's first record
   * as line 1, and the invocation returns the LFs its records hold (ChunkProgress.lines) for Summarize.
   */
  readonly lines: 'absolute' | 'relative';
  readonly rejects: RejectsNaming;
}

/**
 * The tables a chunk's format and layout are looked up in (chunk-layouts.ts ChunkTables): only the layout's traits
 * are read here, so a plan does not depend on the planners and importers that depend on it.
 */
export interface PlanTables {
  readonly formats: SourceFormatTable;
  readonly layouts: Readonly<Record<string, { readonly traits: LayoutTraits } | undefined>>;
}

/**
 * The plan of one invocation of `event`'s chunk; `rejectsPrefix` is the function's (LambdaConfig), `tables` those
 * the request's format and its layout are looked up in.
 */
export function planChunk(
  event: ImportChunkEvent,
  rejectsPrefix: string,
  tables: PlanTables,
  outputBucket: string = event.job.request.bucket,
): ChunkPlan {
  const { job, chunk, chunkIndex } = event;
  const { bucket, format } = job.request;
  const entry = job.sources.objects[chunk.object];
  const key = objectKey(job.sources, chunk.object);
  const compression = compressionOf(entry.key, format.compression);
  const traits = sourceFormatOf(format, tables.formats).traits;
  const { traits: layoutTraits } = chunkLayoutOf(traits, tables.layouts);
  const lines = chunk.line === undefined ? 'relative' : 'absolute';
  return {
    chunk,
    layout: traits.layout,
    key,
    where: s3Url(bucket, key),
    size: entry.size,
    compression,
    ...sourceAndEnd(event, compression, layoutTraits, outputBucket),
    start: invocationStart(event),
    lines,
    rejects: {
      bucket: outputBucket,
      folder: executionOutputPrefix(rejectsPrefix, job.executionName),
      objectPrefix: job.sources.objects.length > 1 ? `${chunk.object}-` : '',
      withLine: layoutTraits.offsetsRepeat,
      relativeChunk: lines === 'relative' ? chunkIndex : null,
    },
  };
}

function sourceAndEnd(
  { job, chunk }: ImportChunkEvent,
  compression: Compression,
  layout: LayoutTraits,
  outputBucket: string,
): Pick<ChunkPlan, 'source' | 'readEnd'> {
  const { bucket } = job.request;
  const object = sourceObject(bucket, job.sources, chunk.object);
  if (compression === 'none') {
    const { size } = job.sources.objects[chunk.object];
    // Row groups lie whole inside their chunk; a byte range's last record may end past it.
    const readEnd: ReadEnd = layout.lastRecordPastEnd
      ? { kind: 'last-record-past-end', end: chunk.end, size }
      : { kind: 'chunk-end', end: chunk.end };
    return { source: { kind: 'ranges', object }, readEnd };
  }
  if (job.sources.objects[chunk.object].staged) {
    const piece = {
      bucket: outputBucket,
      key: stagedPieceKey(job.sources.staging!, chunk.object, chunk.start),
      etag: '',
    };
    return { source: { kind: 'staged-piece', piece }, readEnd: { kind: 'chunk-end', end: chunk.end } };
  }
  return { source: { kind: 'decompressed', object, compression }, readEnd: { kind: 'data-end' } };
}

/**
 * The checkpoint, else the chunk's first record when it has a `line`, else a search from the chunk's start. A
 * byte range paused before it read a byte returns its start as its checkpoint (live-settings.ts): that is searched
 * from again, since a record starting exactly there is found there.
 */
function invocationStart({ chunk, progress }: ImportChunkEvent): InvocationStart {
  const next = progress?.next;
  if (chunk.line === undefined && (!next || next.offset === chunk.start)) {
    return { kind: 'first-record-from', offset: chunk.start };
  }
  return { kind: 'at', at: next ?? { offset: chunk.start, line: chunk.line ?? 1 } };
}

/**
 * Rejects of one invocation go to `<rejectsPrefix>/<execution>/<offset>.csv`, named by where the invocation started
 * (`<object index>-<offset>` with several objects; `<offset>-<line>` for Parquet); a chunk with relative lines writes
 * under `relative/` for Summarize to number (relative-rejects.ts).
 */
export function rejectsKey({ rejects }: ChunkPlan, from: Checkpoint): string {
  const at = rejects.withLine ? `${from.offset}-${from.line}` : `${from.offset}`;
  const name = `${rejects.objectPrefix}${at}`;
  return rejects.relativeChunk === null
    ? `${rejects.folder}/${name}.csv`
    : relativeRejectsKey(rejects.folder, rejects.relativeChunk, name);
}

/** Where a paused invocation holds the chunk: its known start (a byte range not yet started: the chunk's start). */
export function heldCheckpoint({ start }: ChunkPlan): Checkpoint {
  return start.kind === 'at' ? start.at : { offset: start.offset, line: 1 };
}

/** The LFs a finished relative chunk's records hold: from its first record (line 1) to the line after its last. */
export function chunkLines(lineAfter: number): number {
  return lineAfter - 1;
}
