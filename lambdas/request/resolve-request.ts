import { WRITE_MODES, type FormatType, type ResolvedRequest } from '../contract/import-request.js';
import { FORMAT_TRAITS, type FormatTraitsTable } from '../contract/format-traits.js';
import { parseTemplates } from './attribute-template.js';
import { detectFormat } from './detect-format.js';
import { isObject, show } from './field-values.js';
import { resolveFormat } from './resolve-format.js';
import {
  requireString,
  resolveAttributes,
  resolveExclude,
  resolveSettings,
  resolveSource,
  resolveTypes,
} from './request-fields.js';
import { InvalidRequestError } from '../contract/errors.js';
import { resolveMirrorFields } from './mirror-fields.js';

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
  'maxRejects',
  'consistentRead',
  'mirror',
  'scope',
  'maxDeletePercent',
];
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
 * What a request's `mode` and `format.type` may name. Preflight passes its wiring's tables (write/write-modes.ts,
 * formats/record-formats.ts, where tests add their own); the CLI and the construct check against the built-in ones.
 * The validator does not import the tables themselves: the construct (lib/watch-input.ts) validates requests too,
 * and the writers' and readers' dependencies are not the package's.
 */
export interface RequestChoices {
  /** The names `mode` may take: the write mode table's, which the contract's WRITE_MODES types. */
  readonly modeNames: readonly string[];
  /** The types `format.type` may take, with their traits: the table of source formats'. */
  readonly formats: FormatTraitsTable;
}

/** The built-in write modes and source formats. */
export const BUILT_IN_CHOICES: RequestChoices = { modeNames: WRITE_MODES, formats: FORMAT_TRAITS };

/**
 * Checks an execution input and applies every default, once: the ResolvedRequest every handler works from. Collects every
 * problem, then throws one InvalidRequestError that names each field, so a user fixes a request in one go.
 * Preflight passes what it `found` (the objects pick the format's defaults); without it the request's key does.
 * `choices` are the modes and formats the request may name (preflight passes its wiring's).
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
export function resolveImportRequest(
  input: unknown,
  found?: FoundSource,
  choices: RequestChoices = BUILT_IN_CHOICES,
): ResolvedRequest {
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
  const settings = resolveSettings(input, choices.modeNames, tail);
  const mirror = resolveMirrorFields(input, tail);
  const detected = detectFormat(found?.formatKey ?? source.key ?? source.prefix ?? '');
  const format = resolveFormat(input.format, { ...found, detected }, { types, attributes }, choices.formats);
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
    ...mirror,
  };
}
