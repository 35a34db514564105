import {
  FORMAT_TYPES,
  WRITE_MODES,
  type FormatType,
  type ImportRequest,
  type WriteMode,
} from '../../lambdas/contract/import-request.js';
import { DEFAULT_CHUNK_MIB } from '../../lambdas/contract/limits.js';
import type { FlagSpec } from '../command-line/command-spec.js';
import { parseAttributeFlags } from './attribute-flags.js';
import { parseNumber, parseTypes } from './values.js';

/**
 * The flags that shape the request (`local`, `start`, `estimate`; `local watch` takes some of them), each one a
 * field of the request (lambdas/contract/import-request.ts) or a part of its `format`.
 */
export const REQUEST_FLAGS = {
  table: { type: 'string', value: 'T', description: 'the target table (required, unless a --request file names it)' },
  format: {
    type: 'string',
    choices: FORMAT_TYPES,
    description: "how records are read (the request's format.type); default from the file's extension",
  },
  delimiter: { type: 'string', value: 'C|tab', description: 'one character; default tab for *.tsv, comma otherwise' },
  'no-header': { type: 'boolean', description: 'the file has no header row (then --columns names the columns)' },
  columns: { type: 'string', value: 'a,b,c', description: "column names: with --no-header, or renaming the header's" },
  types: {
    type: 'string',
    value: 'col=N,col2=BOOL',
    description: 'column types: S (default), N, BOOL, JSON; key types always come from the table',
  },
  'chunk-mib': { type: 'string', value: 'N', description: 'target chunk size in MiB', default: DEFAULT_CHUNK_MIB },
  'max-write-rate': {
    type: 'string',
    value: 'N',
    description: "cap the import at N items/s (the request's maxWriteRate; 0: uncapped)",
    default: 0,
  },
  spread: { type: 'boolean', description: "reorder writes inside each chunk (the request's spread)" },
  'warm-throughput': {
    type: 'string',
    value: 'N',
    description: "pre-warm an on-demand table to N write units/s (the request's warmThroughput)",
  },
  mode: {
    type: 'string',
    choices: WRITE_MODES,
    description: "what is done with each item (the request's mode)",
    default: 'put',
  },
  'dry-run': { type: 'boolean', description: "run everything but the writes (the request's dryRun)" },
  attr: {
    type: 'string',
    multiple: true,
    value: 'NAME=TEMPLATE',
    description: "an attribute computed from each record, e.g. 'PK=USER#{user_id}' (the request's attributes)",
  },
  exclude: { type: 'string', value: 'a,b', description: "columns not stored (the request's exclude)" },
  'allow-without-backup': {
    type: 'boolean',
    description:
      "let a delete import start on a table without point-in-time recovery (the request's allowWithoutBackup)",
  },
  'consistent-read': {
    type: 'boolean',
    description:
      "sync reads each key's item strongly consistent, at twice the read units (the request's consistentRead)",
  },
  'max-rejects': {
    type: 'string',
    value: 'N',
    description:
      "fail the import once a chunk has rejected more than N rows (the request's maxRejects); default: once a chunk's first 1000 rows are all rejected",
  },
  mirror: {
    type: 'boolean',
    description: "with --mode sync: then delete the table's items whose keys the file dropped (the request's mirror)",
  },
  'scope-prefix': {
    type: 'string',
    value: 'P',
    description: "with --mirror: delete only items whose partition key begins with P (the request's scope)",
  },
  'max-delete-percent': {
    type: 'string',
    value: 'N',
    description:
      "with --mirror: delete nothing and fail when more than N% of the items in scope would go; default 10 (the request's maxDeletePercent)",
  },
} as const satisfies Record<string, FlagSpec>;

/** `--request req.json`: a StartExecution payload the flags and the source complete. */
export const REQUEST_FILE_FLAG = {
  type: 'string',
  value: 'req.json',
  description:
    'a StartExecution payload (JSON): its fields, the flags above over them, the source over bucket and key/prefix',
} as const satisfies FlagSpec;

/** `--json`, for every command that prints a result. */
export const JSON_FLAG = {
  type: 'boolean',
  description: 'print one JSON object as the last stdout line',
} as const satisfies FlagSpec;

/**
 * The request fields the command line gives, in the request's order; each is present only when its flag is
 * given (`maxWriteRate` when above 0, `spread`, `dryRun` and `allowWithoutBackup` when true).
 */
export type RequestFlags = Partial<Omit<ImportRequest, 'bucket' | 'key' | 'prefix'>>;

type Values = { readonly [name: string]: unknown };

/** The one place where flags become request fields. Throws UsageError naming the bad flag. */
export function requestFlagsOf(values: Values): RequestFlags {
  const text = (name: keyof typeof REQUEST_FLAGS) => (typeof values[name] === 'string' ? values[name] : undefined);
  const table = text('table') || undefined;
  const format = formatOf(text('format'), text('delimiter'), values['no-header'] === true, text('columns'));
  const mode = text('mode'); // one of WRITE_MODES: the parser checks the flag's choices
  const types = parseTypes(text('types'));
  const chunkMiB = optionalNumber(text('chunk-mib'), '--chunk-mib', (n) => n > 0);
  const maxWriteRate = parseNumber(text('max-write-rate'), '--max-write-rate', 0, (n) => n >= 0);
  const maxRejects = optionalNumber(text('max-rejects'), '--max-rejects', (n) => Number.isSafeInteger(n) && n >= 0);
  const warmThroughput = optionalNumber(
    text('warm-throughput'),
    '--warm-throughput',
    (n) => Number.isInteger(n) && n > 0,
  );
  return {
    ...(table !== undefined ? { table } : {}),
    ...(Object.keys(format).length > 0 ? { format } : {}),
    ...(Object.keys(types).length > 0 ? { types } : {}),
    ...(chunkMiB !== undefined ? { chunkMiB } : {}),
    ...(maxWriteRate > 0 ? { maxWriteRate } : {}),
    ...(values.spread === true ? { spread: true } : {}),
    ...(warmThroughput !== undefined ? { warmThroughput } : {}),
    ...(mode !== undefined ? { mode: mode as WriteMode } : {}),
    ...(values['dry-run'] === true ? { dryRun: true } : {}),
    ...parseAttributeFlags(values.attr as string[] | undefined, text('exclude')),
    ...(values['allow-without-backup'] === true ? { allowWithoutBackup: true } : {}),
    ...(maxRejects !== undefined ? { maxRejects } : {}),
    ...(values['consistent-read'] === true ? { consistentRead: true } : {}),
    ...mirrorFlagsOf(values),
  };
}

/**
 * --mirror, --scope-prefix and --max-delete-percent: the request's mirror fields, only what they give (the validator
 * refuses a scope or percentage without a mirror, naming the field and the flag).
 */
function mirrorFlagsOf(values: Values): Pick<RequestFlags, 'mirror' | 'scope' | 'maxDeletePercent'> {
  const prefix = values['scope-prefix'];
  const percent = values['max-delete-percent'];
  return {
    ...(values.mirror === true ? { mirror: true } : {}),
    ...(typeof prefix === 'string' ? { scope: { partitionKeyPrefix: prefix } } : {}),
    ...(typeof percent === 'string'
      ? { maxDeletePercent: parseNumber(percent, '--max-delete-percent', 0, (n) => n >= 0 && n <= 100) }
      : {}),
  };
}

function optionalNumber(text: string | undefined, flag: string, valid: (n: number) => boolean) {
  return text === undefined ? undefined : parseNumber(text, flag, 0, valid);
}

/** --format, --delimiter, --no-header and --columns: the request's `format`, only what they give. */
function formatOf(type: string | undefined, delimiter: string | undefined, noHeader: boolean, columns?: string) {
  return {
    ...(type !== undefined ? { type: type as FormatType } : {}),
    ...(delimiter !== undefined ? { delimiter: delimiter === 'tab' ? '\t' : delimiter } : {}),
    ...(noHeader ? { header: false } : {}),
    ...(columns !== undefined ? { columns: columns.split(',') } : {}),
  };
}
