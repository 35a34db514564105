import { buffer } from 'node:stream/consumers';
import { parquetSchema } from 'hyparquet';
import type { PlannedObject } from './planning-inputs.js';
import { InvalidRequestError } from '../contract/errors.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import { columnKind, columnSignature } from '../formats/parquet/parquet-columns.js';
import { readParquetFooter, type FetchRange, type ParquetFooter } from '../formats/parquet/parquet-footer.js';
import type { ReadFrom, SourceObject } from '../source/source-object.js';

/** Range reads of the objects (preflight's PlanIo.readFrom). */
export interface FooterIo {
  readFrom(source: SourceObject, size: number): ReadFrom;
}

/** Bytes [start, end) of one object: a read from `start` that ends at `end` (footers are read up to the end). */
export function fetchRange(io: FooterIo, source: SourceObject): FetchRange {
  return (start, end) => buffer(io.readFrom(source, end)(start));
}

/** One object's footer, read with range GETs from its end (pinned to its ETag). */
export function readObjectFooter(object: PlannedObject, io: FooterIo): Promise<ParquetFooter> {
  return readParquetFooter(fetchRange(io, object.source), object.size, object.where);
}

/** The names a Parquet import's records hold: its schema's columns (parquetColumns); rows are numbered from 1. */
export function parquetNames(
  request: ResolvedRequest,
  objects: readonly PlannedObject[],
  footers: readonly ParquetFooter[],
  keys: readonly KeyAttribute[],
) {
  const columns = parquetColumns(request, objects, footers, keys);
  return { columns, dataLine: 1, known: { names: columns, what: 'the Parquet columns' } };
}

/**
 * The columns of a Parquet import, from every object's footer, before any write: the files must share one schema (a
 * folder's part files do), each key attribute must be a column whose values take the table's key type (or a scalar
 * column typed `S` for an S key), and `types` may only give `S` or `TTL` to scalar columns.
 */
export function parquetColumns(
  request: ResolvedRequest,
  objects: readonly PlannedObject[],
  footers: readonly ParquetFooter[],
  keys: readonly KeyAttribute[],
): string[] {
  const schemas = footers.map((footer) => parquetSchema(footer.metadata));
  const signature = (index: number) => schemas[index].children.map(columnSignature).join(',');
  const differs = schemas.findIndex((_schema, index) => signature(index) !== signature(0));
  if (differs > 0) {
    const key = (index: number) => objects[index].source.key;
    throw new InvalidRequestError([
      `schema: ${key(differs)} has another schema than ${key(0)}; import them separately`,
    ]);
  }
  const columns = new Map(schemas[0].children.map((node) => [node.element.name, columnKind(node)]));
  const problems = [...keyProblems(request, columns, keys), ...typeProblems(request, columns)];
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return [...columns.keys()];
}

function keyProblems(request: ResolvedRequest, columns: Map<string, string>, keys: readonly KeyAttribute[]): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    if (request.attributes && Object.hasOwn(request.attributes, key.name)) continue; // computed: checked elsewhere
    const kind = columns.get(key.name);
    const given = request.types[key.name] === 'S' ? 'S' : kind;
    if (kind === undefined) {
      problems.push(
        `columns: key attribute ${JSON.stringify(key.name)} (${key.role}, ${key.type}) is not among the Parquet ` +
          `columns [${[...columns.keys()].join(', ')}]`,
      );
    } else if (given !== key.type) {
      problems.push(
        `columns: key attribute ${JSON.stringify(key.name)} is ${key.type} in the table, but the Parquet column holds ${given} values`,
      );
    }
  }
  return problems;
}

function typeProblems(request: ResolvedRequest, columns: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, type] of Object.entries(request.types)) {
    const kind = columns.get(name);
    if (request.attributes && Object.hasOwn(request.attributes, name)) continue;
    if (kind === undefined) problems.push(`types.${name}: no Parquet column named ${JSON.stringify(name)}`);
    else if (kind === 'L' || kind === 'M')
      problems.push(`types.${name}: the column holds ${kind} values; only scalar columns take ${type}`);
  }
  return problems;
}
