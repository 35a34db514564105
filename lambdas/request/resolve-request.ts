import {
  COMPRESSIONS,
  FORMAT_TYPES,
  COLUMN_TYPES,
  type ColumnType,
  type Compression,
  type FormatType,
  type ResolvedCsvFormat,
  type ResolvedFormat,
  type ResolvedJsonFormat,
  type ResolvedParquetFormat,
  type ResolvedRequest,
  WRITE_MODES,
  type WriteMode,
} from '../contract/import-request.js';
import { parseTemplates } from './attribute-template.js';
import { detectFormat } from './detect-format.js';
import { InvalidRequestError } from '../contract/errors.js';
import { DEFAULT_CHUNK_MIB } from '../contract/limits.js';
import { FORMAT_TRAITS } from '../contract/format-traits.js';

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
const KNOWN_FORMAT_FIELDS = ['type', 'delimiter', 'header', 'columns', 'quote', 'compression'];
const CSV_ONLY_FIELDS = ['delimiter', 'header', 'columns', 'quote'];
/** warmThroughput becomes UpdateTable's WarmThroughput.WriteUnitsPerSecond, a whole number (a Long). */
const WHOLE_WRITE_UNITS = 'a whole number of write units/s above 0';

/**
 * Checks an execution input and applies defaults. Collects every problem, then throws one
 * InvalidRequestError that names each field, so a user fixes a request in one go. `formatKey` names the
 * object whose extension picks the format defaults (preflight passes a prefix's first object); by
 * default the request's `key` (or `prefix`). `modeNames` are the names `mode` may take:
 * the write mode table's (lambdas/write/write-modes.ts, which the contract's WRITE_MODES types; preflight passes the
 * wiring's). The validator does not import the table itself: the construct (lib/watch-input.ts) validates requests
 * too, and the writers' dependencies are not the package's.
 */
export function resolveImportRequest(
  input: unknown,
  formatKey?: string,
  modeNames: readonly string[] = WRITE_MODES,
): ResolvedRequest {
  const problems: string[] = [];
  if (!isObject(input)) throw new InvalidRequestError([`request: must be a JSON object, got ${show(input)}`]);
  for (const field of Object.keys(input)) {
    if (!KNOWN_FIELDS.includes(field)) problems.push(`${field}: unknown field (known: ${KNOWN_FIELDS.join(', ')})`);
  }
  const bucket = requireString(input, 'bucket', problems);
  const source = resolveSource(input, problems);
  const table = requireString(input, 'table', problems);
  const format = resolveFormat(input.format, formatKey ?? source.key ?? source.prefix ?? '', problems);
  const types = resolveTypes(input.types, problems);
  const attributes = resolveAttributes(input.attributes, problems);
  const exclude = resolveExclude(input.exclude, problems);
  problems.push(...parseTemplates(attributes).problems);
  for (const name of exclude.filter((n) => Object.hasOwn(attributes, n))) {
    problems.push(`exclude: ${show(name)} is also computed (attributes.${name}); exclude names columns not stored`);
  }
  checkTypesOfRecordsWithTypes(format.type, types, attributes, problems);
  const chunkMiB = optionalNumber(input, 'chunkMiB', DEFAULT_CHUNK_MIB, (n) => n > 0, 'a number above 0', problems);
  const maxWriteRate = optionalNumber(input, 'maxWriteRate', 0, (n) => n >= 0, 'a number >= 0', problems);
  const spread = input.spread ?? false;
  if (typeof spread !== 'boolean') problems.push(`spread: must be true or false, got ${show(spread)}`);
  const warm = optionalNumber(input, 'warmThroughput', 0, isWholeAboveZero, WHOLE_WRITE_UNITS, problems);
  const mode = input.mode ?? 'put';
  if (typeof mode !== 'string' || !modeNames.includes(mode)) {
    problems.push(`mode: must be one of ${modeNames.join(', ')}, got ${show(mode)}`);
  }
  const dryRun = optionalBoolean(input, 'dryRun', problems);
  const allowWithoutBackup = optionalBoolean(input, 'allowWithoutBackup', problems);
  if (problems.length > 0) throw new InvalidRequestError(problems);
  const warmThroughput = warm > 0 ? { warmThroughput: warm } : {};
  return {
    bucket,
    ...source,
    table,
    format,
    types,
    chunkMiB,
    maxWriteRate,
    spread: spread === true,
    ...warmThroughput,
    ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
    ...(exclude.length > 0 ? { exclude } : {}),
    mode: mode as WriteMode,
    dryRun,
    ...(allowWithoutBackup ? { allowWithoutBackup: true as const } : {}),
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

/**
 * JSON Lines and DynamoDB JSON records carry their own types: there `types` may only type the computed
 * `attributes`, or turn an attribute into a TTL. Parquet columns are typed by the schema: `types` may also turn a
 * scalar column into `S` (its value as text); preflight checks the column against the schema.
 */
function checkTypesOfRecordsWithTypes(
  formatType: FormatType,
  types: Record<string, ColumnType>,
  attributes: Record<string, string>,
  problems: string[],
): void {
  const { typedRecords, textColumns } = FORMAT_TRAITS[formatType];
  if (!typedRecords) return;
  for (const [name, type] of Object.entries(types)) {
    if (Object.hasOwn(attributes, name) || type === 'TTL' || (textColumns && type === 'S')) continue;
    problems.push(
      `types.${name}: ${formatType} records carry their own types; types may only name computed attributes ` +
        `(attributes) or give TTL${textColumns ? ' or S' : ''} (format.type is ${show(formatType)})`,
    );
  }
}

function optionalBoolean(input: Record<string, unknown>, field: string, problems: string[]): boolean {
  const value = input[field] ?? false;
  if (typeof value === 'boolean') return value;
  problems.push(`${field}: must be true or false, got ${show(value)}`);
  return false;
}

/** Exactly one of `key` (one object) and `prefix` (every object under it), each a non-empty string. */
function resolveSource(input: Record<string, unknown>, problems: string[]): { key?: string; prefix?: string } {
  const has = (field: string) => input[field] !== undefined;
  if (has('key') && has('prefix')) {
    problems.push('key, prefix: give one of them, not both (key: one object; prefix: every object under it)');
    return {};
  }
  if (!has('prefix') && !has('key')) {
    problems.push('key: required, a non-empty string (or prefix, for every object under a key prefix)');
    return {};
  }
  if (!has('prefix')) return { key: requireString(input, 'key', problems) };
  const prefix = input.prefix;
  if (typeof prefix === 'string' && prefix.length > 0) return { prefix };
  problems.push(`prefix: must be a non-empty key prefix such as "imports/parts/", got ${show(prefix)}`);
  return {};
}

function resolveFormat(value: unknown, key: string, problems: string[]): ResolvedFormat {
  const format = value === undefined ? {} : value;
  if (!isObject(format)) {
    problems.push(`format: must be an object, got ${show(value)}`);
    return { type: 'csv', delimiter: ',', header: true, quote: '"' };
  }
  for (const field of Object.keys(format)) {
    if (!KNOWN_FORMAT_FIELDS.includes(field)) problems.push(`format.${field}: unknown field`);
  }
  const detected = detectFormat(key);
  const type = format.type ?? detected.type;
  if (!FORMAT_TYPES.includes(type as FormatType)) {
    problems.push(`format.type: must be one of ${FORMAT_TYPES.join(', ')}, got ${show(type)}`);
  }
  const compression = format.compression;
  if (compression !== undefined && !COMPRESSIONS.includes(compression as Compression)) {
    problems.push(`format.compression: must be one of ${COMPRESSIONS.join(', ')}, got ${show(compression)}`);
  }
  const compressed = compression === undefined ? {} : { compression: compression as Compression };
  if (type === 'csv' || !FORMAT_TYPES.includes(type as FormatType)) {
    return { ...resolveCsvFormat(format, detected.delimiter ?? ',', problems), ...compressed };
  }
  for (const field of CSV_ONLY_FIELDS.filter((f) => format[f] !== undefined)) {
    problems.push(`format.${field}: only for CSV; ${type} records need none (format.type is ${show(type)})`);
  }
  const traits = FORMAT_TRAITS[type as FormatType];
  if (traits.compressedInside) {
    if (compression !== undefined) {
      problems.push(`format.compression: ${traits.title} files compress their pages inside the file; give none`);
    }
    return { type: type as ResolvedParquetFormat['type'] };
  }
  return { type: type as ResolvedJsonFormat['type'], ...compressed };
}

function resolveCsvFormat(
  format: Record<string, unknown>,
  defaultDelimiter: string,
  problems: string[],
): ResolvedCsvFormat {
  const delimiter = format.delimiter ?? defaultDelimiter;
  if (typeof delimiter !== 'string' || delimiter.length !== 1 || /[\r\n]/.test(delimiter)) {
    problems.push(`format.delimiter: must be one character other than a newline, got ${show(delimiter)}`);
  }
  const quote = format.quote ?? '"';
  if (typeof quote !== 'string' || quote.length > 1 || /[\r\n]/.test(quote) || quote === delimiter) {
    problems.push(`format.quote: must be one character (not the delimiter) or "" for none, got ${show(quote)}`);
  }
  const header = format.header ?? true;
  if (typeof header !== 'boolean') problems.push(`format.header: must be true or false, got ${show(header)}`);
  const columns = format.columns;
  if (columns !== undefined) checkColumnNames(columns, 'format.columns', problems);
  if (header === false && columns === undefined) {
    problems.push('format.columns: required when format.header is false');
  }
  return {
    type: 'csv',
    delimiter: String(delimiter),
    header: header === true,
    quote: String(quote),
    ...(Array.isArray(columns) ? { columns: columns.map(String) } : {}),
  };
}

/** Column names must be non-empty and unique: they become attribute names. */
export function checkColumnNames(columns: unknown, field: string, problems: string[]): void {
  if (!Array.isArray(columns) || columns.length === 0) {
    problems.push(`${field}: must be a non-empty array of names, got ${show(columns)}`);
    return;
  }
  const seen = new Set<string>();
  columns.forEach((name, index) => {
    if (typeof name !== 'string' || name.trim() === '') {
      problems.push(`${field}[${index}]: must be a non-empty name, got ${show(name)}`);
    } else if (/[\r\n]/.test(name)) {
      // A header read from a file with CR-only line endings is one long record: its names hold the CRs.
      problems.push(`${field}[${index}]: must not hold a line break, got ${show(name)} (records end at LF or CRLF)`);
    } else if (seen.has(name)) {
      problems.push(`${field}[${index}]: duplicate column name ${show(name)}`);
    }
    seen.add(String(name));
  });
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
