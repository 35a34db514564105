import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseAttributeFlags } from './attribute-flags.js';
import { UsageError } from './usage-error.js';
import { FORMAT_TYPES, type FormatType } from '../../lambdas/contract/import-request.js';
import {
  COLUMN_TYPES,
  WRITE_MODES,
  type ColumnType,
  type RequestFormat,
  type WriteMode,
} from '../../lambdas/contract/import-request.js';
import {
  DEFAULT_CHUNK_MIB,
  DEFAULT_LAMBDA_TIMEOUT_SECONDS,
  DEFAULT_MAX_CONCURRENCY,
  MAX_CONCURRENCY,
  MAX_LAMBDA_TIMEOUT_SECONDS,
} from '../../lambdas/contract/limits.js';

export type KeyType = 'S' | 'N' | 'B';

/** `s3-ddb-import local` options, as parsed from argv. */
export interface LocalCommand {
  readonly file: string;
  /** The target table; '' with `requestFile`, whose payload names it. */
  readonly table: string;
  /** `--request`: a StartExecution payload to run as it is, bucket and key replaced by the uploaded file's. */
  readonly requestFile?: string;
  readonly partitionKey?: { name: string; type: KeyType };
  readonly sortKey?: { name: string; type: KeyType };
  readonly createTable: boolean;
  readonly format: RequestFormat;
  readonly types: Record<string, ColumnType>;
  readonly concurrency: number;
  readonly chunkMiB?: number;
  readonly timeoutSeconds: number;
  readonly json: boolean;
  /** Cap in items/s for the whole import (0: none). */
  readonly maxWriteRate: number;
  readonly spread: boolean;
  /** `--warm-throughput N`: the request's `warmThroughput`, write units/s to pre-warm an on-demand table to. */
  readonly warmThroughput?: number;
  /** `--mode`: the request's `mode` (put when absent). */
  readonly mode?: WriteMode;
  /** `--dry-run`: the request's `dryRun`. */
  readonly dryRun: boolean;
  /** `--attr NAME=TEMPLATE` (repeatable) and `--exclude a,b`: see attribute-flags.ts. */
  readonly attributes?: Record<string, string>;
  readonly exclude?: string[];
}

export { UsageError };

export const USAGE = `usage: s3-ddb-import local <file> --table T [--pk a[:S|N|B]] [--sk b[:S|N|B]] [--create-table]
         [--format csv|jsonl|dynamodb-json|dynamodb-ion|parquet] [--delimiter C|tab] [--no-header] [--columns a,b,c]
         [--types col=N,col2=BOOL] [--concurrency N] [--chunk-mib N] [--timeout-s N] [--json]
         [--max-write-rate N] [--spread] [--warm-throughput N] [--mode put|insert|update|delete] [--dry-run]
         [--attr NAME=TEMPLATE ...] [--exclude a,b] [--allow-without-backup]
       s3-ddb-import local <file> --request req.json [--create-table --pk a[:S|N|B] [--sk b]] [--concurrency N]
         [--timeout-s N] [--json]
       s3-ddb-import local watch --help`;

/** Parses the arguments after `local`. Throws UsageError naming the bad flag. */
export function parseLocalCommand(args: string[]): LocalCommand {
  const { values, source: file } = parseSourceCommandArgs(
    args,
    {
      pk: { type: 'string' },
      sk: { type: 'string' },
      'create-table': { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      'timeout-s': { type: 'string' },
    },
    'file',
  );
  if (values.request !== undefined) {
    // The flags that shape the request (all of REQUEST_FLAG_OPTIONS but --json): the payload says all of that.
    const shaping = Object.keys(REQUEST_FLAG_OPTIONS).filter((flag) => flag !== 'json') as (keyof typeof values)[];
    const given = shaping.find((flag) => values[flag] !== undefined && values[flag] !== false);
    if (given)
      throw new UsageError(`--${given} cannot be combined with --request: the payload is the request, edit it there`);
  }
  const flags = parseRequestFlags(values);
  if (values.request === undefined && !flags.table) throw new UsageError('--table is required');
  const createTable = values['create-table'] === true;
  if (createTable && !values.pk) throw new UsageError('--create-table needs --pk (and --sk for a composite key)');
  return {
    file,
    ...flags,
    table: flags.table ?? '',
    ...(values.request !== undefined ? { requestFile: values.request } : {}),
    ...(values.pk ? { partitionKey: parseKey(values.pk, '--pk') } : {}),
    ...(values.sk ? { sortKey: parseKey(values.sk, '--sk') } : {}),
    createTable,
    concurrency: parseConcurrency(values.concurrency),
    timeoutSeconds: parseNumber(
      values['timeout-s'],
      '--timeout-s',
      DEFAULT_LAMBDA_TIMEOUT_SECONDS,
      (n) => n > 0 && n <= MAX_LAMBDA_TIMEOUT_SECONDS,
    ),
  };
}

/**
 * The flags that shape the request, shared by `local`, `start` and `estimate` (parseArgs option specs):
 * the target table, the format, the column types, the chunk size, the write cap, spread, the pre-warm, and --json.
 */
export const REQUEST_FLAG_OPTIONS = {
  table: { type: 'string' },
  format: { type: 'string' },
  delimiter: { type: 'string' },
  'no-header': { type: 'boolean', default: false },
  columns: { type: 'string' },
  types: { type: 'string' },
  'chunk-mib': { type: 'string' },
  'max-write-rate': { type: 'string' },
  spread: { type: 'boolean', default: false },
  'warm-throughput': { type: 'string' },
  attr: { type: 'string', multiple: true },
  exclude: { type: 'string' },
  json: { type: 'boolean', default: false },
  mode: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  'allow-without-backup': { type: 'boolean', default: false },
} as const;

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/**
 * parseArgs for a command on one `<noun>` (`local`, `start`, `estimate`): the request flags, `--request`
 * and the command's own `options`. Throws UsageError unless exactly one positional is given.
 */
export function parseSourceCommandArgs<const O extends OptionSpecs>(args: string[], options: O, noun: string) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { ...REQUEST_FLAG_OPTIONS, request: { type: 'string' }, ...options } as const,
  });
  if (positionals.length !== 1) throw new UsageError(`expected one <${noun}>, got ${positionals.length}`);
  return { values, source: positionals[0] };
}

/** What REQUEST_FLAG_OPTIONS parse into; `table` is checked by each command (a request file may name it). */
export type RequestFlags = Pick<
  LocalCommand,
  | 'format'
  | 'types'
  | 'chunkMiB'
  | 'json'
  | 'maxWriteRate'
  | 'spread'
  | 'warmThroughput'
  | 'mode'
  | 'dryRun'
  | 'attributes'
  | 'exclude'
> & {
  readonly table: string | undefined;
  /** `--allow-without-backup`: the request's `allowWithoutBackup` (a delete without point-in-time recovery). */
  readonly allowWithoutBackup?: true;
};

/** The request flags' values, checked. Throws UsageError naming the bad flag. */
export function parseRequestFlags(values: Record<string, string | boolean | string[] | undefined>): RequestFlags {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const table = text('table') || undefined;
  const type = text('format');
  if (type !== undefined && !FORMAT_TYPES.includes(type as FormatType)) {
    throw new UsageError(`--format: expected ${FORMAT_TYPES.join('|')}, got ${JSON.stringify(type)}`);
  }
  const delimiter = text('delimiter');
  const columns = text('columns');
  const format: RequestFormat = {
    ...(type !== undefined ? { type: type as FormatType } : {}),
    ...(delimiter !== undefined ? { delimiter: delimiter === 'tab' ? '\t' : delimiter } : {}),
    ...(values['no-header'] ? { header: false } : {}),
    ...(columns !== undefined ? { columns: columns.split(',') } : {}),
  };
  const chunkMiB = text('chunk-mib');
  const warm = text('warm-throughput');
  const mode = text('mode');
  if (mode !== undefined && !WRITE_MODES.includes(mode as WriteMode)) {
    throw new UsageError(`--mode: expected ${WRITE_MODES.join('|')}, got ${JSON.stringify(mode)}`);
  }
  return {
    table,
    format,
    types: parseTypes(text('types')),
    ...(chunkMiB !== undefined
      ? { chunkMiB: parseNumber(chunkMiB, '--chunk-mib', DEFAULT_CHUNK_MIB, (n) => n > 0) }
      : {}),
    json: values.json === true,
    maxWriteRate: parseNumber(text('max-write-rate'), '--max-write-rate', 0, (n) => n >= 0),
    spread: values.spread === true,
    ...(warm !== undefined
      ? { warmThroughput: parseNumber(warm, '--warm-throughput', 0, (n) => Number.isInteger(n) && n > 0) }
      : {}),
    ...(mode !== undefined ? { mode: mode as WriteMode } : {}),
    dryRun: values['dry-run'] === true,
    ...parseAttributeFlags(values.attr as string[] | undefined, text('exclude')),
    ...(values['allow-without-backup'] === true ? { allowWithoutBackup: true as const } : {}),
  };
}

/** --concurrency: the Map's MaxConcurrency, 1 to MAX_CONCURRENCY. */
export function parseConcurrency(text: string | undefined): number {
  return parseNumber(
    text,
    '--concurrency',
    DEFAULT_MAX_CONCURRENCY,
    (n) => Number.isInteger(n) && n >= 1 && n <= MAX_CONCURRENCY,
  );
}

/** `name[:S|N|B]` of --pk and --sk. */
export function parseKey(text: string, flag: string): { name: string; type: KeyType } {
  const [name, type = 'S', ...rest] = text.split(':');
  if (!name || rest.length > 0 || !['S', 'N', 'B'].includes(type))
    throw new UsageError(`${flag}: expected name[:S|N|B], got ${JSON.stringify(text)}`);
  return { name, type: type as KeyType };
}

/** `col=N,col2=BOOL` of --types. */
export function parseTypes(text: string | undefined): Record<string, ColumnType> {
  const types: Record<string, ColumnType> = {};
  for (const pair of text ? text.split(',') : []) {
    const [column, type] = pair.split('=');
    if (!column || !COLUMN_TYPES.includes(type as ColumnType)) {
      throw new UsageError(`--types: expected col=${COLUMN_TYPES.join('|')}, got ${JSON.stringify(pair)}`);
    }
    types[column] = type as ColumnType;
  }
  return types;
}

/** A number flag, `fallback` when absent; UsageError naming the flag when `valid` refuses it. */
export function parseNumber(
  text: string | undefined,
  flag: string,
  fallback: number,
  valid: (n: number) => boolean,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) throw new UsageError(`${flag}: invalid value ${JSON.stringify(text)}`);
  return value;
}
