import {
  DEFAULT_LAMBDA_TIMEOUT_SECONDS,
  DEFAULT_MAX_CONCURRENCY,
  MAX_CONCURRENCY,
  MAX_LAMBDA_TIMEOUT_SECONDS,
} from '../../lambdas/contract/limits.js';
import type { FlagSpec } from '../command-line/command-spec.js';
import { UsageError } from '../command-line/usage-error.js';
import { parseKey, parseNumber, type KeyFlag } from './values.js';

/** The flags of the commands that run the workflow on this machine (`local`, `local watch`). */
export const LOCAL_FLAGS = {
  pk: {
    type: 'string',
    value: 'a[:S|N|B]',
    description: 'the partition key of the table --create-table makes (type S by default)',
  },
  sk: { type: 'string', value: 'b[:S|N|B]', description: 'its sort key, for a composite key' },
  'create-table': {
    type: 'boolean',
    description: 'create the table (on demand) if it does not exist, with the key --pk and --sk give',
  },
  concurrency: {
    type: 'string',
    value: 'N',
    description: `the Map's MaxConcurrency: chunks imported at once (1-${MAX_CONCURRENCY})`,
    default: DEFAULT_MAX_CONCURRENCY,
    parse: (text: string) => parseConcurrency(text),
  },
  'timeout-s': {
    type: 'string',
    value: 'N',
    description: `the Lambda timeout the handlers see, in seconds (at most ${MAX_LAMBDA_TIMEOUT_SECONDS}): small values exercise checkpoints`,
    default: DEFAULT_LAMBDA_TIMEOUT_SECONDS,
    parse: (text: string) => parseTimeoutSeconds(text),
  },
} as const satisfies Record<string, FlagSpec>;

/** The key of the table `--create-table` makes. */
export interface TableKeys {
  readonly partitionKey: KeyFlag;
  readonly sortKey?: KeyFlag;
}

/** --create-table with --pk (and --sk): the keys, or null without --create-table. --pk and --sk are checked when given. */
export function createTableKeys(values: { 'create-table'?: boolean; pk?: string; sk?: string }): TableKeys | null {
  const partitionKey = values.pk ? parseKey(values.pk, '--pk') : undefined;
  const sortKey = values.sk ? parseKey(values.sk, '--sk') : undefined;
  if (!values['create-table']) return null;
  if (!partitionKey) throw new UsageError('--create-table needs --pk (and --sk for a composite key)');
  return { partitionKey, ...(sortKey ? { sortKey } : {}) };
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

/** --timeout-s: above 0, at most Lambda's 900 s. */
export function parseTimeoutSeconds(text: string | undefined): number {
  return parseNumber(
    text,
    '--timeout-s',
    DEFAULT_LAMBDA_TIMEOUT_SECONDS,
    (n) => n > 0 && n <= MAX_LAMBDA_TIMEOUT_SECONDS,
  );
}
