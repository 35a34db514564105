import type { ByteRange } from './range-planner.js';
import { planRanges } from './range-planner.js';
import { pieceBytes, type ChunkBudget } from './chunk-budget.js';
import { readObjectStart } from './object-headers.js';
import { parquetObjectChunks } from './parquet-chunks.js';
import { readObjectFooter } from './parquet-objects.js';
import { stageObject } from './stager.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { Checkpoint, Chunk, ScanCheckpoint, SourceSet } from '../contract/workflow-payloads.js';
import { SourceTooLargeError } from '../contract/errors.js';
import { DEFAULT_IMPORT_MEMORY_MB } from '../environment/config.js';
import { compressionOf } from '../source/compression.js';
import { objectData } from '../source/object-data.js';
import { createRecordFormat } from '../formats/record-formats.js';
import type { ReadFrom, SourceObject } from '../source/source-object.js';
import { objectKey, s3Url, sourceObject } from '../source/source-set.js';

/** The S3 calls the scan makes: range reads of the objects, and PUTs of staged pieces. */
export interface ScanIo {
  /** Streams the object from an offset to `size`, its end. */
  readFrom(source: SourceObject, size: number): ReadFrom;
  putObject(bucket: string, key: string, body: Buffer): Promise<void>;
}

export interface ScanObjectsParams {
  readonly request: ResolvedRequest;
  readonly sources: SourceSet;
  readonly budget: ChunkBudget;
  /** Where to resume: an object and a record boundary in it (offset 0: its start, header first). */
  readonly from: ScanCheckpoint;
  /** The chunks cut by earlier calls (staged pieces count against the staged room). */
  readonly earlier: readonly Chunk[];
  readonly io: ScanIo;
  /** Asked after each buffer, piece and object: true when the invocation should return a checkpoint now. */
  readonly shouldStop: () => boolean;
  /** The import function's memory: a Parquet row group too big for it fails here. @default DEFAULT_IMPORT_MEMORY_MB */
  readonly importMemoryMb?: number;
}

export interface ScanObjectsResult {
  readonly chunks: Chunk[];
  readonly checkpoint: ScanCheckpoint;
  readonly complete: boolean;
}

/**
 * Cuts the import's objects into chunks, in key order, from a checkpoint: a plain object into byte ranges, a
 * compressed one into one whole chunk or, when staged, into staged plain pieces. Stops when asked once it has
 * made some progress, and says where to resume.
 */
export async function scanObjects(params: ScanObjectsParams): Promise<ScanObjectsResult> {
  const { sources, from, shouldStop } = params;
  const chunks: Chunk[] = [];
  let last: Checkpoint = from;
  for (let index = from.object; index < sources.objects.length; index++) {
    const resume = index === from.object && from.offset > 0 ? from : null;
    const result = await scanObject(params, index, resume, [...params.earlier, ...chunks]);
    chunks.push(...result.ranges.map((range) => ({ object: index, ...range })));
    if (result.next) return { chunks, checkpoint: { object: index, ...result.next, inQuotes: false }, complete: false };
    last = result.end;
    const more = index + 1 < sources.objects.length;
    if (more && chunks.length > 0 && shouldStop()) {
      return { chunks, checkpoint: { object: index + 1, offset: 0, line: 1, inQuotes: false }, complete: false };
    }
  }
  return { chunks, checkpoint: { object: sources.objects.length - 1, ...last, inQuotes: false }, complete: true };
}

interface ObjectScan {
  readonly ranges: ByteRange[];
  /** Where to resume in this object, or null when it is done. */
  readonly next: Checkpoint | null;
  /** Where the object's data ended (for the final checkpoint). */
  readonly end: Checkpoint;
}

async function scanObject(
  params: ScanObjectsParams,
  index: number,
  resume: Checkpoint | null,
  before: readonly Chunk[],
): Promise<ObjectScan> {
  const { request, sources, io, budget, shouldStop } = params;
  if (request.format.type === 'parquet') {
    const where = s3Url(request.bucket, objectKey(sources, index));
    const memoryMb = params.importMemoryMb ?? DEFAULT_IMPORT_MEMORY_MB;
    const footer = await readObjectFooter(request, sources, index, io);
    return { ...parquetObjectChunks(footer.rowGroups, budget.chunkBytes, memoryMb, where), next: null };
  }
  const entry = sources.objects[index];
  const where = s3Url(request.bucket, objectKey(sources, index));
  const compression = compressionOf(entry.key, request.format.compression);
  const data = objectData(io.readFrom(sourceObject(request.bucket, sources, index), entry.size), compression, where);
  let from = resume;
  if (!from) {
    const start = await readObjectStart(request, data, entry.size, compression);
    from = { offset: start.dataStart, line: start.dataLine };
    if (!start.hasData) return { ranges: [], next: null, end: from };
  }
  const dialect = createRecordFormat(request.format).dialect;
  if (compression === 'none') {
    // Byte ranges from the size alone: each lane finds its own record boundaries (range-planner.ts).
    // The lines past the data start are counted by the lanes: the final checkpoint keeps the data start's.
    return {
      ranges: planRanges(budget.chunkBytes, entry.size, from),
      next: null,
      end: { offset: entry.size, line: from.line },
    };
  }
  if (!entry.staged) {
    // Imported whole by one lane; its length stands for its work (the compressed size: see Chunk).
    return { ranges: [{ start: from.offset, end: from.offset + entry.size, line: from.line }], next: null, end: from };
  }
  const isStagedChunk = (chunk: Chunk) => sources.objects[chunk.object].staged === true;
  const stagedBefore = before.filter(isStagedChunk).length;
  const stagedAfter = sources.objects.slice(index + 1).filter((o) => o.staged).length;
  const staged = await stageObject({
    dialect,
    staging: sources.staging!,
    object: index,
    from,
    read: resume ? (offset, line) => failIfSkipTookTheInvocation(data(offset, line), offset, shouldStop, where) : data,
    pieceBytes: (made) => pieceBytes(budget.chunkBytes, stagedBefore + made, budget.stagedRoom - stagedAfter, where),
    put: (key, body) => io.putObject(request.bucket, key, body),
    shouldStop,
  });
  const end = staged.pieces.at(-1) ?? { end: from.offset, line: from.line };
  return { ranges: staged.pieces, next: staged.next, end: { offset: end.end, line: from.line } };
}

/**
 * Resuming a staged object decompresses it again up to the checkpoint. When the deadline came while doing so
 * and that took a minute or more, the next invocation would skip as long again and get no further: fail by
 * name instead of timing out on every retry. At the measured decompression rates (docs/performance.md, "sources and staging") a
 * 15-minute preflight meets this only past some 100 GB of decompressed data.
 */
export const SLOW_SKIP_MS = 60_000;

export async function* failIfSkipTookTheInvocation(
  data: AsyncIterable<Buffer>,
  offset: number,
  shouldStop: () => boolean,
  where: string,
  clock: () => number = () => performance.now(),
): AsyncGenerator<Buffer> {
  const started = clock();
  let first = true;
  for await (const buf of data) {
    if (first && shouldStop() && clock() - started >= SLOW_SKIP_MS) {
      throw new SourceTooLargeError(
        `${where}: decompressing it again up to byte ${offset}, where staging stopped, took ` +
          'this preflight invocation to its deadline: the object is too big to stage; split it into several objects',
      );
    }
    first = false;
    yield buf;
  }
}
