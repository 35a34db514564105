import {
  COLUMN_TYPES,
  type ColumnType,
  type FormatType,
  type ResolvedRequest,
  WRITE_MODES,
  type WriteMode,
} from '../contract/import-request.js';
import { parseTemplates } from './attribute-template.js';
import { detectFormat } from './detect-format.js';
import { isObject, show } from './field-values.js';
import { resolveFormat } from './resolve-format.js';
import { InvalidRequestError } from '../contract/errors.js';
import { DEFAULT_CHUNK_MIB } from '../contract/limits.js';

const KNOWN_FIELDS = [
  'bucket',
  'key',
  'prefix',
  'table',
  'format',
  'types',
  'chunkMiB',
  'maxWriteRate',
  'spread',
  'warmThroughput',
  'attributes',
  'exclude',
  'mode',
  'dryRun',
  'allowWithoutBackup',
];
/** warmThroughput becomes UpdateTable's WarmThroughput.WriteUnitsPerSecond, a whole number (a Long). */
const WHOLE_WRITE_UNITS = 'a whole number of write units/s above 0';

/**
 * What preflight found before it resolves the request: the objects' names, an export's manifest and the first
 * object's bytes pick the format's defaults, and a key sent URL-encoded (as S3 events send keys) is found decoded.
 * Without it (the CLI, a watch's rule), the request's own key or prefix picks the defaults.
 */
export interface FoundSource {
  /** The request's `key` as found (preflight/source-resolution.ts). @default - the request's key */
  readonly key?: string;
  /** The key whose extensions pick the format defaults: the first object's. */
  readonly formatKey: string;
  /** A DynamoDB export's `outputFormat` (its manifest's) and the type it is read as. @default - not an export */
  readonly export?: { readonly outputFormat: string; readonly type: FormatType };
  /** The first object's first bytes are Parquet's magic and no name says a format. @default false */
  readonly parquetMagic?: boolean;
}

/**
 * Checks an execution input and applies every default, once: the request handlers work from. Collects every
 * problem, then throws one InvalidRequestError that names each field, so a user fixes a request in one go.
 * Preflight passes what it `found` (the objects pick the format's defaults); without it the request's key does.
 *
 * @example
 * resolveImportRequest({ bucket: 'imports', key: 'ngrams/1gram.tsv', table: 'ngrams', types: { year: 'N' } });
 * // { bucket: 'imports', key: 'ngrams/1gram.tsv', table: 'ngrams',
 * //   format: { type: 'csv', delimiter: '\t', header: true, quote: '"' }, types: { year: 'N' },
 * //   chunkMiB: 64, maxWriteRate: 0, spread: false, mode: 'put', dryRun: false }
 *
 * resolveImportRequest({ bucket: 'imports', key: 'ngrams/1gram.tsv' });
 * // InvalidRequestError: invalid request: table: required, a non-empty string
 */
export function resolveImportRequest(input: unknown, found?: FoundSource): ResolvedRequest {
  if (!isObject(input)) throw new InvalidRequestError([`request: must be a JSON object, got ${show(input)}`]);
  const head = Object.keys(input)
    .filter((field) => !KNOWN_FIELDS.includes(field))
    .map((field) => `${field}: unknown field (known: ${KNOWN_FIELDS.join(', ')})`);
  const bucket = requireString(input, 'bucket', head);
  const source = resolveSource(input, found?.key, head);
  const table = requireString(input, 'table', head);
  const fields: string[] = [];
  const types = resolveTypes(input.types, fields);
  const attributes = resolveAttributes(input.attributes, fields);
  const exclude = resolveExclude(input.exclude, fields);
  const overlap: string[] = [];
  for (const name of exclude.filter((n) => Object.hasOwn(attributes, n))) {
    overlap.push(`exclude: ${show(name)} is also computed (attributes.${name}); exclude names columns not stored`);
  }
  const tail: string[] = [];
  const settings = resolveSettings(input, tail);
  const detected = detectFormat(found?.formatKey ?? source.key ?? source.prefix ?? '');
  const format = resolveFormat(input.format, { ...found, detected }, { types, attributes });
  const templates = parseTemplates(attributes).problems;
  // Problems in the order of the request's fields, the format's after the source's.
  const problems = [...head, ...format.problems, ...fields, ...templates, ...overlap, ...format.typeProblems, ...tail];
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return {
    bucket,
    ...source,
    table,
    format: format.format,
    types,
    ...settings.numbers,
    ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
    ...(exclude.length > 0 ? { exclude } : {}),
    ...settings.switches,
  };
}

/** The numbers and switches: chunk size, write rate, spread, pre-warm, mode, dry run, deletes without backup. */
function resolveSettings(input: Record<string, unknown>, problems: string[]) {
  const chunkMiB = optionalNumber(input, 'chunkMiB', DEFAULT_CHUNK_MIB, (n) => n > 0, 'a number above 0', problems);
  const maxWriteRate = optionalNumber(input, 'maxWriteRate', 0, (n) => n >= 0, 'a number >= 0', problems);
  const spread = optionalBoolean(input, 'spread', problems);
  const warm = optionalNumber(input, 'warmThroughput', 0, isWholeAboveZero, WHOLE_WRITE_UNITS, problems);
  const mode = input.mode ?? 'put';
  if (!WRITE_MODES.includes(mode as WriteMode)) {
    problems.push(`mode: must be one of ${WRITE_MODES.join(', ')}, got ${show(mode)}`);
  }
  const dryRun = optionalBoolean(input, 'dryRun', problems);
  const allowWithoutBackup = optionalBoolean(input, 'allowWithoutBackup', problems);
  return {
    numbers: { chunkMiB, maxWriteRate, spread, ...(warm > 0 ? { warmThroughput: warm } : {}) },
    switches: { mode: mode as WriteMode, dryRun, ...(allowWithoutBackup ? { allowWithoutBackup: true as const } : {}) },
  };
}

/**
 * `attributes`: attribute name to template. Each template's placeholders are checked against the columns
 * once they are known (preflight); here only the shape.
 */
function resolveAttributes(value: unknown, problems: string[]): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    problems.push(`attributes: must be an object of attribute name to template, got ${show(value)}`);
    return {};
  }
  const attributes: Record<string, string> = {};
  for (const [name, template] of Object.entries(value)) {
    if (name.trim() === '') problems.push('attributes: an attribute name must not be empty');
    else if (typeof template !== 'string') {
      problems.push(`attributes.${name}: must be a template string such as "USER#{user_id}", got ${show(template)}`);
    } else attributes[name] = template;
  }
  return attributes;
}

/** `exclude`: names of columns not stored. */
function resolveExclude(value: unknown, problems: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || name === '')) {
    problems.push(`exclude: must be an array of column names, got ${show(value)}`);
    return [];
  }
  return [...new Set(value as string[])];
}

function optionalBoolean(input: Record<string, unknown>, field: string, problems: string[]): boolean {
  const value = input[field] ?? false;
  if (typeof value === 'boolean') return value;
  problems.push(`${field}: must be true or false, got ${show(value)}`);
  return false;
}

/** Exactly one of `key` (one object) and `prefix` (every object under it), each a non-empty string. */
function resolveSource(
  input: Record<string, unknown>,
  foundKey: string | undefined,
  problems: string[],
): { key?: string; prefix?: string } {
  const has = (field: string) => input[field] !== undefined;
  if (has('key') && has('prefix')) {
    problems.push('key, prefix: give one of them, not both (key: one object; prefix: every object under it)');
    return {};
  }
  if (!has('prefix') && !has('key')) {
    problems.push('key: required, a non-empty string (or prefix, for every object under a key prefix)');
    return {};
  }
  if (!has('prefix')) {
    const key = requireString(input, 'key', problems);
    return { key: foundKey ?? key };
  }
  const prefix = input.prefix;
  if (typeof prefix === 'string' && prefix.length > 0) return { prefix };
  problems.push(`prefix: must be a non-empty key prefix such as "imports/parts/", got ${show(prefix)}`);
  return {};
}

function resolveTypes(value: unknown, problems: string[]): Record<string, ColumnType> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    problems.push(`types: must be an object of column name to type, got ${show(value)}`);
    return {};
  }
  const types: Record<string, ColumnType> = {};
  for (const [column, type] of Object.entries(value)) {
    if (COLUMN_TYPES.includes(type as ColumnType)) types[column] = type as ColumnType;
    else problems.push(`types.${column}: unknown type ${show(type)} (known: ${COLUMN_TYPES.join(', ')})`);
  }
  return types;
}

function requireString(input: Record<string, unknown>, field: string, problems: string[]): string {
  const value = input[field];
  if (typeof value === 'string' && value.length > 0) return value;
  problems.push(`${field}: required, a non-empty string${value === undefined ? '' : `, got ${show(value)}`}`);
  return '';
}

function optionalNumber(
  input: Record<string, unknown>,
  field: string,
  fallback: number,
  valid: (n: number) => boolean,
  expected: string,
  problems: string[],
): number {
  const value = input[field];
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && valid(value)) return value;
  problems.push(`${field}: must be ${expected}, got ${show(value)}`);
  return fallback;
}

function isWholeAboveZero(n: number): boolean {
  return Number.isInteger(n) && n > 0;
}
