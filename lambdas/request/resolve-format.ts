import {
  COMPRESSIONS,
  type ColumnType,
  type Compression,
  type FormatType,
  type ResolvedCsvFormat,
  type ResolvedFormat,
  type ResolvedJsonFormat,
  type ResolvedParquetFormat,
} from '../contract/import-request.js';
import type { FormatTraits, FormatTraitsTable } from '../contract/format-traits.js';
import type { DetectedFormat } from './detect-format.js';
import { checkColumnNames } from './column-checks.js';
import { isObject, show } from './field-values.js';

const KNOWN_FORMAT_FIELDS = ['type', 'delimiter', 'header', 'columns', 'quote', 'compression'];
const CSV_ONLY_FIELDS = ['delimiter', 'header', 'columns', 'quote'];

/** What picks a format's defaults besides the request's own `format`: the objects' names, manifest and bytes. */
export interface FormatFacts {
  /** What the extensions of the key that picks the defaults say (detect-format.ts). */
  readonly detected: DetectedFormat;
  /** A DynamoDB export's format as its manifest names it (`outputFormat`), and the type it is read as. */
  readonly export?: { readonly outputFormat: string; readonly type: FormatType };
  /** The first object's first bytes are Parquet's magic, and no name says a format. */
  readonly parquetMagic?: boolean;
}

/** The format with its defaults applied, or the problems that keep it from being resolved. */
export interface FormatResolution {
  readonly format: ResolvedFormat;
  /** Problems of `format` itself. */
  readonly problems: string[];
  /** Problems of `types` that the format makes: its records carry their own types. */
  readonly typeProblems: string[];
}

/**
 * Resolves `format` against what the objects say. The type: the request's, else the export manifest's (a request
 * asking for another fails: an export's data files are read in its format whatever their names say,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html), else Parquet when the
 * first object's bytes say so, else the key's extension. CSV's dialect defaults follow the extension too.
 * `formats` holds the types `format.type` may name, with their traits (the wiring's table of source formats).
 */
export function resolveFormat(
  value: unknown,
  facts: FormatFacts,
  typed: { readonly types: Record<string, ColumnType>; readonly attributes: Record<string, string> },
  formats: FormatTraitsTable,
): FormatResolution {
  const problems: string[] = [];
  const format = value === undefined ? {} : value;
  if (!isObject(format)) {
    problems.push(`format: must be an object, got ${show(value)}`);
    return { format: { type: 'csv', delimiter: ',', header: true, quote: '"' }, problems, typeProblems: [] };
  }
  for (const field of Object.keys(format).filter((f) => !KNOWN_FORMAT_FIELDS.includes(f))) {
    problems.push(`format.${field}: unknown field`);
  }
  const type = formatType(format.type, facts, formats, problems);
  const compression = format.compression;
  if (compression !== undefined && !COMPRESSIONS.includes(compression as Compression)) {
    problems.push(`format.compression: must be one of ${COMPRESSIONS.join(', ')}, got ${show(compression)}`);
  }
  // An unknown type is read as CSV, whose records carry no types (its problem is named above).
  const known = traitsOfType(type, formats);
  const typeProblems = known ? typesOfRecordsWithTypes(type as string, known, typed) : [];
  return { format: resolveOfType(type, known, format, facts.detected, problems), problems, typeProblems };
}

/** The traits of a type the table holds (its own keys only: `format.type` "toString" is unknown), else undefined. */
function traitsOfType(type: unknown, formats: FormatTraitsTable): FormatTraits | undefined {
  return typeof type === 'string' && Object.hasOwn(formats, type) ? formats[type] : undefined;
}

function formatType(asked: unknown, facts: FormatFacts, formats: FormatTraitsTable, problems: string[]): unknown {
  if (asked !== undefined && !traitsOfType(asked, formats)) {
    problems.push(`format.type: must be one of ${Object.keys(formats).join(', ')}, got ${show(asked)}`);
  }
  const found = facts.export;
  if (found && asked !== undefined && asked !== found.type) {
    problems.push(
      `format.type: ${show(asked)}, but the export's manifest-summary.json says outputFormat ` +
        `${found.outputFormat}, which is read as ${show(found.type)} (leave format.type out for an export)`,
    );
  }
  return asked ?? found?.type ?? (facts.parquetMagic ? 'parquet' : facts.detected.type);
}

/** The format of a type with its defaults; `traits` are the type's, undefined for a type the table lacks (CSV). */
function resolveOfType(
  type: unknown,
  traits: FormatTraits | undefined,
  format: Record<string, unknown>,
  detected: DetectedFormat,
  problems: string[],
): ResolvedFormat {
  const compressed = format.compression === undefined ? {} : { compression: format.compression as Compression };
  if (!traits || traits.headerColumns) {
    return { ...resolveCsvFormat(format, detected.delimiter ?? ',', problems), ...compressed };
  }
  for (const field of CSV_ONLY_FIELDS.filter((f) => format[f] !== undefined)) {
    problems.push(`format.${field}: only for CSV; ${String(type)} records need none (format.type is ${show(type)})`);
  }
  if (traits.compressedInside) {
    if (format.compression !== undefined) {
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

/**
 * JSON Lines and DynamoDB JSON records carry their own types: there `types` may only type the computed
 * `attributes`, or turn an attribute into a TTL. Parquet columns are typed by the schema: `types` may also turn a
 * scalar column into `S` (its value as text); preflight checks the column against the schema.
 */
function typesOfRecordsWithTypes(
  formatType: string,
  { typedRecords, textColumns }: FormatTraits,
  { types, attributes }: { readonly types: Record<string, ColumnType>; readonly attributes: Record<string, string> },
): string[] {
  if (!typedRecords) return [];
  const problems: string[] = [];
  for (const [name, type] of Object.entries(types)) {
    if (Object.hasOwn(attributes, name) || type === 'TTL' || (textColumns && type === 'S')) continue;
    problems.push(
      `types.${name}: ${formatType} records carry their own types; types may only name computed attributes ` +
        `(attributes) or give TTL${textColumns ? ' or S' : ''} (format.type is ${show(formatType)})`,
    );
  }
  return problems;
}
