import { chunkBudget, isStaged, type ChunkBudget } from './chunk-budget.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { RecordFormat } from '../formats/record-format.js';
import { sourceFormatOf, type SourceFormat, type SourceFormatTable } from '../formats/record-formats.js';
import type { SourceSet } from '../contract/workflow-payloads.js';
import { checkDecompressible, compressionOf, type Compression } from '../source/compression.js';
import type { SourceObject } from '../source/source-object.js';
import { objectKey, s3Url, sourceObject } from '../source/source-set.js';

const MIB = 1024 * 1024;

/** One object as planning reads it: where it is, how its bytes are stored, whether it is staged. */
export interface PlannedObject {
  /** Its index in SourceSet.objects (Chunk.object). */
  readonly index: number;
  /** What every read of it names: bucket, key and the ETag each GET sends as IfMatch. */
  readonly source: SourceObject;
  /** `s3://bucket/key`, as errors name it. */
  readonly where: string;
  readonly size: number;
  readonly compression: Compression;
  /** Decompressed once and stored as plain pieces (chunk-budget.ts isStaged). */
  readonly staged: boolean;
}

/** What planning works from, resolved once per invocation from the request and the objects. */
export interface Planning {
  /** The request's format as the wiring's table of source formats holds it. */
  readonly format: SourceFormat;
  /** The reader of its byte records (layout `records`); null for a layout read another way (Parquet's footer). */
  readonly records: RecordFormat | null;
  readonly objects: readonly PlannedObject[];
  /** The chunk size and the room for staged pieces: the same on every invocation. */
  readonly budget: ChunkBudget;
  /** The objects with their `staged` marks and the staging folder, as the workflow state carries them. */
  readonly sources: SourceSet;
}

/** The reader of the planned format's byte records; fails for a layout read another way (a planner's bug). */
export function recordsOf(planning: Pick<Planning, 'format' | 'records'>): RecordFormat {
  if (!planning.records) throw new Error(`${planning.format.traits.title} objects are not read as byte records`);
  return planning.records;
}

/**
 * Resolves the request's source format (from `formats`, the wiring's table), each object's compression (the
 * request's `format.compression`, else its key's suffix) and whether it is staged, once, for every step of the
 * invocation: the header reads, the budget and the chunk planning. `staging` names the folder staged pieces go to
 * (`<stagingPrefix>/<execution>`); the sources carry it only when some object is staged. Fails by name when this
 * runtime cannot decompress an object.
 */
export function resolvePlanning(
  request: ResolvedRequest,
  sources: SourceSet,
  staging: string,
  formats: SourceFormatTable,
): Planning {
  const format = sourceFormatOf(request.format, formats);
  const requestedBytes = request.chunkMiB * MIB;
  const objects = sources.objects.map((entry, index): PlannedObject => {
    const where = s3Url(request.bucket, objectKey(sources, index));
    const compression = compressionOf(entry.key, request.format.compression);
    checkDecompressible(compression, where);
    const staged = isStaged(compression, entry.size, requestedBytes);
    return {
      index,
      source: sourceObject(request.bucket, sources, index),
      where,
      size: entry.size,
      compression,
      staged,
    };
  });
  const entries = sources.objects.map((entry, index) =>
    objects[index].staged ? { ...entry, staged: true as const } : entry,
  );
  const anyStaged = objects.some((o) => o.staged);
  return {
    format,
    records: format.records ? format.records(request.format) : null,
    objects,
    budget: chunkBudget(requestedBytes, objects),
    sources: { ...sources, objects: entries, staging: anyStaged ? staging : null },
  };
}
