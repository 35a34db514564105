import { parseArgs } from 'node:util';
import type { CsvFormat } from '../../lambdas/contract/import-request.js';
import {
  DEFAULT_LAMBDA_TIMEOUT_SECONDS,
  DEFAULT_MAX_CONCURRENCY,
  MAX_CONCURRENCY,
  MAX_LAMBDA_TIMEOUT_SECONDS,
} from '../../lambdas/contract/limits.js';
import type { WatchedPrefix } from '../../lib/watch-input.js';
import { parseKey, parseNumber, parseTypes, UsageError, type KeyType } from '../flags/cli-args.js';
import { LOCAL_BUCKET } from '../local-run/local-stack.js';

export const WATCH_USAGE = `usage: s3-ddb-import local watch [--prefix P --table T [--delimiter C|tab] [--no-header] [--columns a,b,c]
         [--types col=N,...] [--chunk-mib N] [--max-write-rate N]] [--cdk-json FILE]
         [--create-table --pk a[:S|N|B] [--sk b[:S|N|B]]] [--bucket B] [--concurrency N] [--timeout-s N] [--json]
  Imports every object uploaded under a watched prefix of the local bucket, until Ctrl-C. The watch is
  the one the flags describe, else the "watches" of cdk.json's context (or --cdk-json FILE).`;

/** `s3-ddb-import local watch` options, as parsed from argv. */
export interface WatchCommand {
  /** The watch the flags describe; without --prefix, the command reads `cdkJson`'s context.watches. */
  readonly watch?: WatchedPrefix;
  readonly cdkJson: string;
  readonly bucket: string;
  /** Create each watched table that does not exist yet, with this key (on demand). */
  readonly createTable?: {
    readonly partitionKey: { name: string; type: KeyType };
    readonly sortKey?: { name: string; type: KeyType };
  };
  readonly concurrency: number;
  readonly timeoutSeconds: number;
  readonly json: boolean;
}

/** Flags that describe the watch itself: they need --prefix. */
const WATCH_FLAGS = ['delimiter', 'no-header', 'columns', 'types', 'chunk-mib', 'max-write-rate'] as const;

/** The flags of `local watch`, as node's parseArgs takes them. */
const WATCH_OPTIONS = {
  prefix: { type: 'string' },
  table: { type: 'string' },
  delimiter: { type: 'string' },
  'no-header': { type: 'boolean' },
  columns: { type: 'string' },
  types: { type: 'string' },
  'chunk-mib': { type: 'string' },
  'max-write-rate': { type: 'string' },
  'cdk-json': { type: 'string' },
  'create-table': { type: 'boolean' },
  pk: { type: 'string' },
  sk: { type: 'string' },
  bucket: { type: 'string' },
  concurrency: { type: 'string' },
  'timeout-s': { type: 'string' },
  json: { type: 'boolean' },
} as const;

type WatchValues = ReturnType<typeof parseArgs<{ options: typeof WATCH_OPTIONS }>>['values'];

/** Parses the arguments after `local watch`. Throws UsageError naming the bad flag. */
export function parseWatchCommand(args: string[]): WatchCommand {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: WATCH_OPTIONS });
  if (positionals.length > 0)
    throw new UsageError(
      `local watch takes no file, got ${JSON.stringify(positionals[0])}: upload files into the watched prefix`,
    );
  checkWatchSource(values);
  if (values['create-table'] && !values.pk)
    throw new UsageError('--create-table needs --pk (and --sk for a composite key)');
  return {
    ...(values.prefix !== undefined
      ? { watch: flagWatch(values as Record<string, string | boolean | undefined>) }
      : {}),
    cdkJson: values['cdk-json'] ?? 'cdk.json',
    bucket: values.bucket ?? LOCAL_BUCKET,
    ...(values['create-table'] ? { createTable: createTableKeys(values.pk!, values.sk) } : {}),
    concurrency: parseNumber(
      values.concurrency,
      '--concurrency',
      DEFAULT_MAX_CONCURRENCY,
      (n) => Number.isInteger(n) && n >= 1 && n <= MAX_CONCURRENCY,
    ),
    timeoutSeconds: parseNumber(
      values['timeout-s'],
      '--timeout-s',
      DEFAULT_LAMBDA_TIMEOUT_SECONDS,
      (n) => n > 0 && n <= MAX_LAMBDA_TIMEOUT_SECONDS,
    ),
    json: values.json === true,
  };
}

/** One watch from the flags (--prefix with --table), or the watches of a cdk.json: never both, never half. */
function checkWatchSource(values: WatchValues): void {
  if ((values.prefix === undefined) !== (values.table === undefined))
    throw new UsageError('--prefix and --table go together');
  if (values.prefix === undefined) {
    const stray = WATCH_FLAGS.find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} describes a watch: give --prefix and --table too`);
  } else if (values['cdk-json'] !== undefined) {
    throw new UsageError('--cdk-json reads the watches from a file: leave out --prefix and --table');
  }
}

function createTableKeys(pk: string, sk: string | undefined): NonNullable<WatchCommand['createTable']> {
  return { partitionKey: parseKey(pk, '--pk'), ...(sk ? { sortKey: parseKey(sk, '--sk') } : {}) };
}

/** The watch the flags describe, as it would sit in cdk.json's `watches`. */
function flagWatch(values: Record<string, string | boolean | undefined>): WatchedPrefix {
  const delimiter = values.delimiter as string | undefined;
  const format: CsvFormat = {
    ...(delimiter !== undefined ? { delimiter: delimiter === 'tab' ? '\t' : delimiter } : {}),
    ...(values['no-header'] ? { header: false } : {}),
    ...(values.columns !== undefined ? { columns: String(values.columns).split(',') } : {}),
  };
  const types = parseTypes(values.types as string | undefined);
  return {
    prefix: values.prefix as string,
    table: values.table as string,
    ...(Object.keys(format).length > 0 ? { format } : {}),
    ...(Object.keys(types).length > 0 ? { types } : {}),
    ...(values['chunk-mib'] !== undefined
      ? { chunkMiB: parseNumber(values['chunk-mib'] as string, '--chunk-mib', 0, (n) => n > 0) }
      : {}),
    ...(values['max-write-rate'] !== undefined
      ? { maxWriteRate: parseNumber(values['max-write-rate'] as string, '--max-write-rate', 0, (n) => n >= 0) }
      : {}),
  };
}
