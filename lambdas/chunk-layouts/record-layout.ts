import { mapAtMost } from '../async/map-at-most.js';
import { headerNames } from '../columns/column-names.js';
import { HEADER_READS_AT_ONCE, readObjectStart, type ObjectStart } from '../columns/object-headers.js';
import { InvalidRequestError } from '../contract/errors.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import { objectData } from '../source/object-data.js';
import type { ReadFrom } from '../source/source-object.js';
import type { LayoutPlanner, ObjectStarts } from './layout-planner.js';
import { recordsOf, type Planning, type PlannedObject } from './planning-inputs.js';
import { planRanges } from './range-planner.js';
import { stagePlannedObject } from './stager.js';

/**
 * The planner of byte records (every text format): the names come from each object's start (a CSV header, a JSON
 * object's first record); a plain object is cut into byte ranges from its size, a compressed one is one whole chunk
 * or, when staged, staged plain pieces (stager.ts).
 * @example
 * const plan = await RECORD_PLANNER.planObject(params, planning.objects[0], null, []);
 */
export const RECORD_PLANNER: LayoutPlanner = {
  async readNames(request, planning, keys, io) {
    const { objects } = planning;
    const records = await mapAtMost(objects, HEADER_READS_AT_ONCE, (object) => {
      const data = objectData(io.readFrom(object.source, object.size), object.compression, object.where);
      const start = readObjectStart(recordsOf(planning), request, data, object.size, object.compression, keys);
      return objects.length > 1 ? start.catch((error: unknown) => namingObject(error, object.source.key)) : start;
    });
    const named = records.map((start, index) => ({ key: objects[index].source.key, start }));
    return { ...headerNames(request, keys, named), starts: { records } };
  },
  async planObject(params, object, resume, before) {
    const { request, planning, io, starts } = params;
    const data = objectData(io.readFrom(object.source, object.size), object.compression, object.where);
    const { start, hasData } = resume
      ? { start: resume, hasData: true }
      : await dataStart(request, planning, object, starts, data);
    if (!hasData) return { ranges: [], next: null, end: start };
    if (object.compression === 'none') {
      // Byte ranges from the size alone: each lane finds its own record boundaries (range-planner.ts).
      // The lines past the data start are counted by the lanes: the final checkpoint keeps the data start's.
      const ranges = planRanges(planning.budget.chunkBytes, object.size, start);
      return { ranges, next: null, end: { offset: object.size, line: start.line } };
    }
    if (!object.staged) {
      // Imported whole by one lane; its length stands for its work (the compressed size: see Chunk).
      const range = { start: start.offset, end: start.offset + object.size, line: start.line };
      return { ranges: [range], next: null, end: start };
    }
    return stagePlannedObject(params, object, start, resume !== null, before, data);
  },
};

/** Where the object's data starts (past its BOM and header), and whether it holds any record. */
async function dataStart(
  request: ResolvedRequest,
  planning: Planning,
  object: PlannedObject,
  starts: ObjectStarts | null,
  data: ReadFrom,
) {
  const read: ObjectStart | undefined = starts?.records?.[object.index];
  const found = read ?? (await readObjectStart(recordsOf(planning), request, data, object.size, object.compression));
  return { start: { offset: found.dataStart, line: found.dataLine }, hasData: found.hasData };
}

/**
 * Of a folder, the object a bad start was found in: `imports/x/b.csv: header: invalid UTF-8 at byte 107`
 * says which file does not match the folder's format, where the bare problem named none. Matched by name, as
 * Step Functions matches errors: a format module bundled on its own path has its own copy of the class.
 */
function namingObject(error: unknown, key: string): never {
  const problems = (error as Partial<InvalidRequestError>).problems;
  if ((error as Error).name !== 'InvalidRequestError' || !Array.isArray(problems)) throw error;
  throw new InvalidRequestError(
    problems.map((problem) => `${key}: ${problem}`),
    { cause: error },
  );
}
