import { planRanges, type ObjectPlan } from './range-planner.js';
import { readObjectStart } from '../columns/object-headers.js';
import { planParquetObject } from './parquet-chunks.js';
import { recordsOf, type Planning, type PlannedObject } from './planning-inputs.js';
import type { ObjectStarts } from './record-names.js';
import { stagePlannedObject } from './stager.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { Checkpoint, Chunk, PlanningCheckpoint } from '../contract/workflow-payloads.js';
import { objectData } from '../source/object-data.js';
import type { ReadFrom, SourceObject } from '../source/source-object.js';

/** The S3 calls planning makes: range reads of the objects, and PUTs of staged pieces. */
export interface PlanIo {
  /** Streams the object from an offset to `size`, its end. */
  readFrom(source: SourceObject, size: number): ReadFrom;
  putObject(bucket: string, key: string, body: Buffer): Promise<void>;
}

export interface PlanObjectsParams {
  readonly request: ResolvedRequest;
  readonly planning: Planning;
  /** Where to resume: an object and a record boundary in it (offset 0: its start, header first). */
  readonly from: PlanningCheckpoint;
  /** The chunks cut by earlier calls (staged pieces count against the staged room). */
  readonly earlier: readonly Chunk[];
  /** The objects' starts as this invocation read them already (record-names.ts); null: read them here. */
  readonly starts: ObjectStarts | null;
  readonly io: PlanIo;
  /** Asked after each piece and object: true when the invocation should return a checkpoint now. */
  readonly shouldStop: () => boolean;
  /** The import function's memory: a Parquet row group too big for it fails here. */
  readonly importMemoryMb: number;
}

export interface PlanObjectsResult {
  readonly chunks: Chunk[];
  readonly checkpoint: PlanningCheckpoint;
  readonly complete: boolean;
}

/**
 * Cuts the import's objects into chunks, in key order, from a checkpoint: a plain object into byte ranges from its
 * size, a Parquet object into runs of row groups from its footer, a compressed one into one whole chunk or, when
 * staged, into staged plain pieces. Stops when asked once it has made some progress, and says where to resume.
 */
export async function planObjects(params: PlanObjectsParams): Promise<PlanObjectsResult> {
  const { planning, from, shouldStop } = params;
  const { objects } = planning;
  const chunks: Chunk[] = [];
  let last: Checkpoint = from;
  for (let index = from.object; index < objects.length; index++) {
    const resume = index === from.object && from.offset > 0 ? from : null;
    const result = await planObject(params, objects[index], resume, [...params.earlier, ...chunks]);
    chunks.push(...result.ranges.map((range) => ({ object: index, ...range })));
    if (result.next) return { chunks, checkpoint: { object: index, ...result.next }, complete: false };
    last = result.end;
    const more = index + 1 < objects.length;
    if (more && chunks.length > 0 && shouldStop()) {
      return { chunks, checkpoint: { object: index + 1, offset: 0, line: 1 }, complete: false };
    }
  }
  return { chunks, checkpoint: { object: objects.length - 1, ...last }, complete: true };
}

async function planObject(
  params: PlanObjectsParams,
  object: PlannedObject,
  resume: Checkpoint | null,
  before: readonly Chunk[],
): Promise<ObjectPlan> {
  const { request, planning, io, starts } = params;
  const { chunkBytes } = planning.budget;
  if (planning.format.traits.layout === 'row-groups')
    return planParquetObject(object, starts?.footers, chunkBytes, params);
  const data = objectData(io.readFrom(object.source, object.size), object.compression, object.where);
  const { start, hasData } = resume
    ? { start: resume, hasData: true }
    : await dataStart(request, planning, object, starts, data);
  if (!hasData) return { ranges: [], next: null, end: start };
  if (object.compression === 'none') {
    // Byte ranges from the size alone: each lane finds its own record boundaries (range-planner.ts).
    // The lines past the data start are counted by the lanes: the final checkpoint keeps the data start's.
    return {
      ranges: planRanges(chunkBytes, object.size, start),
      next: null,
      end: { offset: object.size, line: start.line },
    };
  }
  if (!object.staged) {
    // Imported whole by one lane; its length stands for its work (the compressed size: see Chunk).
    const range = { start: start.offset, end: start.offset + object.size, line: start.line };
    return { ranges: [range], next: null, end: start };
  }
  return stagePlannedObject(params, object, start, resume !== null, before, data);
}

/** Where the object's data starts (past its BOM and header), and whether it holds any record. */
async function dataStart(
  request: ResolvedRequest,
  planning: Planning,
  object: PlannedObject,
  starts: ObjectStarts | null,
  data: ReadFrom,
) {
  const read = starts?.records?.[object.index];
  const found = read ?? (await readObjectStart(recordsOf(planning), request, data, object.size, object.compression));
  return { start: { offset: found.dataStart, line: found.dataLine }, hasData: found.hasData };
}
