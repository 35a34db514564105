/** How one setting of the functions is declared: where it is read from, how, and its default. */
export interface Setting<T> {
  /** The environment variable the construct sets, or null for a setting only callers (local runs, tests) pass. */
  readonly variable: string | null;
  /** Read inside Lambda only: a variable left in a developer's shell must not change a local run. */
  readonly deployedOnly: boolean;
  /** The variable's text as the value, or undefined when it holds none (then the default applies). */
  readonly parse: (text: string) => T | undefined;
  /** The value when neither the variable nor the caller gives one. */
  readonly default: T;
  /** The default inside Lambda, where it differs (metrics on, warm throughput only when the stack allows it). */
  readonly lambdaDefault?: T;
}

/** The value type of a setting's declaration. */
export type SettingValue<S> = S extends Setting<infer T> ? T : never;

const setting = <T>(declared: Omit<Setting<T>, 'deployedOnly'> & { deployedOnly?: boolean }): Setting<T> => ({
  deployedOnly: false,
  ...declared,
});

import { parseSourceBuckets, type SourceBucket } from './source-buckets.js';

/** Trimmed text; empty reads as unset. */
const text = (value: string): string | undefined => value.trim() || undefined;
/** A whole number above 0, else unset. */
const positiveInteger = (value: string): number | undefined => {
  const n = Number(value.trim());
  return value.trim() !== '' && Number.isInteger(n) && n > 0 ? n : undefined;
};
/** A number above 0, else unset. */
const positive = (value: string): number | undefined => (Number(value) > 0 ? Number(value) : undefined);
/** A comma-separated list; an empty one reads as unset. */
const list = (value: string): readonly string[] | undefined => {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
};

/** The ledger of running imports locally (the stack names its own table through LEDGER_TABLE). */
export const DEFAULT_LEDGER_TABLE = 's3-ddb-import-ledger';
/** 1,769 MB buys one full vCPU (https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html). */
export const DEFAULT_IMPORT_MEMORY_MB = 1769;
export const DEFAULT_REJECTS_PREFIX = 's3-ddb-import/rejects';
export const DEFAULT_STAGING_PREFIX = 's3-ddb-import/staging';

/**
 * Every setting the functions read from their environment, declared once: config.ts derives LambdaConfig, its reader
 * and its resolver from this table, and `settingsEnvironment` the variables a deployment sets.
 * @example
 * SETTINGS.ledgerTable.variable; // 'LEDGER_TABLE'
 * SETTINGS.ledgerTable.parse(' imports-ledger '); // 'imports-ledger'
 */
export const SETTINGS = {
  /** Rejects and reports go to s3://<bucket>/<rejectsPrefix>/<execution>/. */
  rejectsPrefix: setting<string>({ variable: 'REJECTS_PREFIX', parse: text, default: DEFAULT_REJECTS_PREFIX }),
  /** Staged pieces of big compressed objects go to s3://<bucket>/<stagingPrefix>/<execution>/. */
  stagingPrefix: setting<string>({ variable: 'STAGING_PREFIX', parse: text, default: DEFAULT_STAGING_PREFIX }),
  /** Tables this deployment may write; a request for another fails in preflight. null: any. */
  allowedTables: setting<readonly string[] | null>({ variable: 'ALLOWED_TABLES', parse: list, default: null }),
  /** The bucket this deployment reads: a request for another fails in preflight by name, not with a bare 403. */
  bucketName: setting<string | null>({ variable: 'BUCKET_NAME', deployedOnly: true, parse: text, default: null }),
  /**
   * The other buckets a request may name (the construct's `sources`) and their owners, as JSON; text that is not such
   * a list fails the container's start, naming the variable (source-buckets.ts).
   */
  sourceBuckets: setting<readonly SourceBucket[]>({
    variable: 'SOURCE_BUCKETS',
    deployedOnly: true,
    parse: (value) => (value.trim() ? parseSourceBuckets(value) : undefined),
    default: [],
  }),
  /** The import function's memory in MB: a Parquet row group too big for it fails in preflight. */
  importMemoryMb: setting<number>({ variable: 'IMPORT_MEMORY_MB', parse: positive, default: DEFAULT_IMPORT_MEMORY_MB }),
  /** The import function, whose Lambda concurrency preflight fits the Map's lanes to. */
  importFunctionName: setting<string | null>({ variable: 'IMPORT_FUNCTION_NAME', parse: text, default: null }),
  /** The import function's reserved concurrency as the stack set it: the lanes' bound, known at deploy time. */
  importReservedConcurrency: setting<number | null>({
    variable: 'IMPORT_RESERVED_CONCURRENCY',
    deployedOnly: true,
    parse: positiveInteger,
    default: null,
  }),
  /** The DynamoDB table of running imports: lanes held, leases, live settings. */
  ledgerTable: setting<string>({ variable: 'LEDGER_TABLE', parse: text, default: DEFAULT_LEDGER_TABLE }),
  /** The bucket's KMS key: every PUT of the functions asks for SSE-KMS with it. null: the bucket's default. */
  bucketKmsKeyArn: setting<string | null>({
    variable: 'BUCKET_KMS_KEY_ARN',
    deployedOnly: true,
    parse: text,
    default: null,
  }),
  /** Write EMF metric lines to stdout: inside Lambda, where CloudWatch Logs turns them into metrics. */
  emitMetrics: setting<boolean>({ variable: null, parse: () => undefined, default: false, lambdaDefault: true }),
  /**
   * May preflight raise a table's warm throughput (UpdateTable)? Inside Lambda only when the stack allows it
   * (`allowWarmThroughput`, which also grants the call); elsewhere the caller's own credentials decide.
   */
  warmThroughputAllowed: setting<boolean>({
    variable: 'WARM_THROUGHPUT_ALLOWED',
    deployedOnly: true,
    parse: (value) => value === 'true',
    default: true,
    lambdaDefault: false,
  }),
} as const;

/** A setting's name. */
export type SettingName = keyof typeof SETTINGS;

/** Every setting with its value. */
export type SettingValues = { -readonly [K in SettingName]: SettingValue<(typeof SETTINGS)[K]> };

/**
 * What the functions read inside Lambda, from `env` (AWS_LAMBDA_FUNCTION_NAME tells Lambda apart: it is set in
 * every function's environment, https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html).
 * Settings the environment leaves unset are absent: the resolver applies their defaults.
 */
export function readSettings(env: NodeJS.ProcessEnv): Partial<SettingValues> {
  const inLambda = Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
  const read = (name: SettingName) => {
    const declared: Setting<unknown> = SETTINGS[name];
    const raw = declared.variable === null || (declared.deployedOnly && !inLambda) ? undefined : env[declared.variable];
    const value = raw === undefined ? undefined : declared.parse(raw);
    return value !== undefined ? value : inLambda ? declared.lambdaDefault : undefined;
  };
  const entries = (Object.keys(SETTINGS) as SettingName[]).map((name) => [name, read(name)] as const);
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as Partial<SettingValues>;
}

/** Each setting: the given value, else its default. */
export function resolveSettings(given: Partial<SettingValues>): SettingValues {
  const entries = (Object.keys(SETTINGS) as SettingName[]).map((name) => {
    const value = given[name];
    return [name, value === undefined ? SETTINGS[name].default : value] as const;
  });
  return Object.fromEntries(entries) as SettingValues;
}

/**
 * How a value becomes its variable's text. The construct passes CDK's own (Fn.join, Stack.toJsonString,
 * Tokenization.stringifyNumber: its values may be deploy-time tokens, which plain JavaScript would mangle).
 */
export interface SettingText {
  /** A list of names (ALLOWED_TABLES), read back comma-separated. */
  list(items: readonly string[]): string;
  /** A list of records (SOURCE_BUCKETS), read back as JSON. */
  json(value: unknown): string;
  number(value: number): string;
}

/** Plain JavaScript text: for values known now (local runs, tests). */
export const PLAIN_SETTING_TEXT: SettingText = {
  list: (items) => items.join(','),
  json: (value) => JSON.stringify(value),
  number: (value) => String(value),
};

/**
 * The environment variables a deployment sets for `values` (the construct's side of the table): each value as its
 * variable's text, lists joined by commas; settings with no variable, or left out, or null, set none.
 * @example
 * settingsEnvironment({ ledgerTable: 'imports-ledger' }); // { LEDGER_TABLE: 'imports-ledger' }
 */
export function settingsEnvironment(
  values: Partial<SettingValues>,
  text: SettingText = PLAIN_SETTING_TEXT,
): Record<string, string> {
  const entries = (Object.keys(values) as SettingName[]).flatMap((name) => {
    const { variable } = SETTINGS[name];
    const value = values[name];
    if (variable === null || value === undefined || value === null) return [];
    return [[variable, environmentText(value, text)]];
  });
  return Object.fromEntries(entries);
}

/** A value as its variable's text: a list of names joined by commas, a list of records as JSON (SOURCE_BUCKETS). */
function environmentText(value: unknown, text: SettingText): string {
  if (typeof value === 'number') return text.number(value);
  if (!Array.isArray(value)) return String(value);
  return value.every((item) => typeof item === 'string') ? text.list(value as string[]) : text.json(value);
}
