import { checkComputedAttributes } from '../columns/attribute-check.js';
import { headerNames } from '../columns/column-names.js';
import { HEADER_READS_AT_ONCE, readObjectStart, type ObjectStart } from '../columns/object-headers.js';
import { parquetNames, readObjectFooter, type FooterIo } from './parquet-objects.js';
import { recordsOf, type Planning } from './planning-inputs.js';
import { mapAtMost } from '../async/map-at-most.js';
import { InvalidRequestError } from '../contract/errors.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { ParquetFooter } from '../formats/parquet/parquet-footer.js';
import { objectData } from '../source/object-data.js';

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

/** The columns records are read with, the line their data starts on, and what was read to know them. */
export interface RecordNames {
  readonly columns: string[];
  readonly dataLine: number;
  readonly starts: ObjectStarts;
}

/**
 * The columns records are read with, after `attributes` and `exclude` are checked against the names records hold:
 * a Parquet schema's columns (from every footer), else the CSV header or the JSON objects' first records. Every
 * object's start is read before any write, a few at a time.
 */
export async function recordNames(
  request: ResolvedRequest,
  planning: Planning,
  keys: KeyAttribute[],
  io: FooterIo,
): Promise<RecordNames> {
  const { objects } = planning;
  const parquet = planning.format.traits.layout === 'row-groups';
  const read = await mapAtMost(objects, HEADER_READS_AT_ONCE, async (object): Promise<ObjectStart | ParquetFooter> => {
    if (parquet) return readObjectFooter(object, io);
    const data = objectData(io.readFrom(object.source, object.size), object.compression, object.where);
    const start = readObjectStart(recordsOf(planning), request, data, object.size, object.compression, keys);
    return objects.length > 1 ? start.catch((error: unknown) => namingObject(error, object.source.key)) : start;
  });
  const starts: ObjectStarts = parquet ? { footers: read as ParquetFooter[] } : { records: read as ObjectStart[] };
  const names = parquet
    ? parquetNames(request, objects, read as ParquetFooter[], keys)
    : headerNames(
        request,
        keys,
        (read as ObjectStart[]).map((start, index) => ({ key: objects[index].source.key, start })),
      );
  checkComputedAttributes(request, names.known, keys);
  return { columns: names.columns, dataLine: names.dataLine, starts };
}

/**
 * Of a folder, the object a bad start was found in: `imports/x/b.parquet: header: invalid UTF-8 at byte 107`
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
