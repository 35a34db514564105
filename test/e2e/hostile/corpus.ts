import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { checkDynamoNumber } from '../../../lambdas/attribute-values/dynamo-number.js';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import { generators } from '../../fixtures/hostile/generate.js';

export const CORPUS_DIR = fileURLToPath(new URL('../../fixtures/hostile/', import.meta.url));
const EXPECT_SUFFIX = '.expect.json';

type KeyDef = [string, 'S' | 'N' | 'B'];
type Item = Record<string, AttributeValue>;

/** One rejected record as the rejects file must show it. */
export interface ExpectedReject {
  /** Physical line where the record starts; its byte offset is that line's start in the object. */
  readonly line: number;
  /** A fragment of the reason. */
  readonly reason: string;
  /** Physical lines the record spans (a quoted newline adds one), or "eof" when it runs to the end. @default 1 */
  readonly lines?: number | 'eof';
  /** false: too large to copy, the record column names its byte range instead. @default true */
  readonly copied?: boolean;
}

/** The execution's output; `written` left out where it is not defined (a key repeated in one batch). */
export interface ExpectedSummary {
  readonly status: 'SUCCEEDED' | 'SUCCEEDED_WITH_REJECTS';
  readonly rows: number;
  readonly written?: number;
  readonly rejected: number;
  readonly chunks?: number;
}

/** What `<case>.expect.json` holds; see test/fixtures/hostile/README.md. */
export interface CaseExpectation {
  readonly description: string;
  /** The fixture file beside it. @default `<case>.csv` */
  readonly source?: string;
  /** A generator in generate.ts that builds the object at test time (large inputs are never committed). */
  readonly generate?: string;
  /** The table's key: [name, type] of the hash key and the range key. */
  readonly table: { readonly hash: KeyDef; readonly range?: KeyDef };
  /** Request fields besides bucket, key and table. */
  readonly request?: Omit<ImportRequest, 'bucket' | 'key' | 'table'>;
  /** Run this case through the real CLI binary too (test/e2e/hostile/cli.test.ts). */
  readonly cli?: boolean;
  readonly expect: {
    /** 0 every row landed, 2 rows were rejected, 1 the execution failed. */
    readonly exitCode: 0 | 1 | 2;
    /** The execution fails: the error's name and fragments its message must hold. */
    readonly error?: { readonly name: string; readonly message: string[] };
    readonly summary?: ExpectedSummary;
    /** Every item of the table afterwards, in DynamoDB JSON; `{ "$repeat": "x", "count": n }` stands for a long string. */
    readonly items?: unknown[];
    readonly rejects?: ExpectedReject[];
  };
}

export interface HostileCase extends CaseExpectation {
  readonly name: string;
  /** The object key: in/<source name>, so the extension picks the default delimiter as in production. */
  readonly objectKey: string;
  readonly body: () => Promise<Buffer>;
}

/** Every case of the corpus: one per `*.expect.json` file, in name order. */
export async function loadCorpus(): Promise<HostileCase[]> {
  const names = (await readdir(CORPUS_DIR)).filter((f) => f.endsWith(EXPECT_SUFFIX)).sort();
  return Promise.all(
    names.map(async (file) => {
      const name = file.slice(0, -EXPECT_SUFFIX.length);
      const expectation = JSON.parse(await readFile(`${CORPUS_DIR}${file}`, 'utf8')) as CaseExpectation;
      const source = expectation.source ?? `${name}.csv`;
      return { ...expectation, name, objectKey: `in/${source}`, body: () => caseBody(expectation, source) };
    }),
  );
}

async function caseBody(expectation: CaseExpectation, source: string): Promise<Buffer> {
  if (!expectation.generate) return readFile(`${CORPUS_DIR}${source}`);
  const generate = generators[expectation.generate];
  if (!generate) throw new Error(`no generator ${JSON.stringify(expectation.generate)} in generate.ts`);
  return generate();
}

/** Expands `{ "$repeat": s, "count": n }` into s repeated n times, anywhere in an expected value. */
export function expand(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expand);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$repeat === 'string') return record.$repeat.repeat(Number(record.count));
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expand(v)]));
}

/** The exit code the CLI maps an outcome to: thrown error 1, rows rejected 2, all landed 0. */
export function exitCodeOf(outcome: { status: string } | Error): 0 | 1 | 2 {
  if (outcome instanceof Error) return 1;
  return outcome.status === 'SUCCEEDED_WITH_REJECTS' ? 2 : 0;
}

/**
 * The same value with every N in one canonical spelling: a server may hand 1E-130 back as 0.000...1,
 * the service as 1E-130; both are the number the file held.
 */
export function canonicalNumbers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalNumbers);
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  const record = value as Record<string, unknown>;
  if (Object.keys(record).length === 1 && typeof record.N === 'string') {
    const check = checkDynamoNumber(record.N);
    return { N: check.ok ? check.canonical : record.N };
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, canonicalNumbers(v)]));
}

/** Items sorted by their key attributes, so two tables compare item by item whatever the Scan order. */
export function sortItems(items: readonly Item[], keys: readonly string[]): Item[] {
  const keyOf = (item: Item) => JSON.stringify(keys.map((k) => item[k]));
  return [...items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}
