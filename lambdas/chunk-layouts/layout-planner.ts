import type { ObjectStart } from '../columns/object-headers.js';
import type { KnownNames } from '../columns/attribute-check.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { Checkpoint, Chunk, KeyAttribute, PlanningCheckpoint } from '../contract/workflow-payloads.js';
import type { ParquetFooter } from '../formats/parquet/parquet-footer.js';
import type { ReadFrom, SourceObject } from '../source/source-object.js';
import type { Planning, PlannedObject } from './planning-inputs.js';
import type { ObjectPlan } from './range-planner.js';

/** The S3 calls planning makes: range reads of the objects, and PUTs of staged pieces. */
export interface PlanIo {
  /** Streams the object from an offset to `size`, its end. */
  readFrom(source: SourceObject, size: number): ReadFrom;
  putObject(bucket: string, key: string, body: Buffer): Promise<void>;
}

/**
 * What the first invocation read at each object's start (its header or first record; a Parquet object's footer),
 * kept for planning its chunks in the same invocation, so no object's start is read twice.
 */
export interface ObjectStarts {
  /** By object index, for record formats: where its data starts. */
  readonly records?: readonly ObjectStart[];
  /** By object index, for Parquet: its footer and row groups. */
  readonly footers?: readonly ParquetFooter[];
}

/** The names a layout's records hold, as read from every object's start, and what was read. */
export interface LayoutNames {
  readonly columns: string[];
  readonly dataLine: number;
  /** What `attributes` and `exclude` are checked against, or null when nothing is known. */
  readonly known: KnownNames | null;
  readonly starts: ObjectStarts;
}

export interface PlanObjectsParams {
  readonly request: ResolvedRequest;
  readonly planning: Planning;
  /** The planner of the format's layout: cuts each object (it is given these params back). */
  readonly planner: LayoutPlanner;
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

/**
 * How preflight plans the objects of one chunk layout (FormatTraits.layout names it): what names their records hold,
 * and how one object is cut into chunks. The planner of a layout's entry (chunk-layouts.ts), beside its importer.
 */
export interface LayoutPlanner {
  /** Reads every object's start (a few at a time) and the names its records hold, checked against the table's keys. */
  readNames(
    request: ResolvedRequest,
    planning: Planning,
    keys: KeyAttribute[],
    io: Pick<PlanIo, 'readFrom'>,
  ): Promise<LayoutNames>;
  /** Cuts one object into chunks from its start, or from `resume` in it; `before` are the chunks cut so far. */
  planObject(
    params: PlanObjectsParams,
    object: PlannedObject,
    resume: Checkpoint | null,
    before: readonly Chunk[],
  ): Promise<ObjectPlan>;
}
