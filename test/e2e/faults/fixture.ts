import {
  DynamoDBServiceException,
  ProvisionedThroughputExceededException,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { expect } from 'vitest';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import type { Chunk, ImportSummary } from '../../../lambdas/contract/workflow-payloads.js';
import { runLocalImport, type LocalRunOptions, type RunnerEvent } from '../../../cli/local-run/runner.js';
import { generateNgrams, type NgramRow } from '../../fixtures/ngrams.js';
import { createBucket, createTable, putText, scanAll, uniqueName } from '../harness.js';
import { ImportLedger } from '../../../lambdas/admission/ledger.js';
import type { Wiring } from '../../../lambdas/wiring/wiring.js';
import { faultWiring } from './inject.js';

export const NGRAM_KEY = 'imports/ngrams/1gram.tsv';

/** A generated 1-gram TSV in its own bucket, and its own empty table keyed (ngram, year). */
export async function ngramImport(rowCount: number, chunkMiB: number) {
  const { text, rows } = generateNgrams(rowCount);
  const bucket = await createBucket();
  await putText(bucket, NGRAM_KEY, text);
  const table = await createTable(['ngram', 'S'], ['year', 'N']);
  const request: ImportRequest = {
    bucket,
    key: NGRAM_KEY,
    table,
    types: { match_count: 'N', volume_count: 'N' },
    chunkMiB,
  };
  return { bucket, table, text, rows, request, offsetOf: rowOffsets(text, rows) };
}

const rowKey = (ngram: string, year: string | number) => `${ngram}|${year}`;

/** Byte offset of each row in the file, by key: tells which chunk a BatchWriteItem request belongs to. */
function rowOffsets(text: string, rows: readonly NgramRow[]): Map<string, number> {
  const offsets = new Map<string, number>();
  let offset = Buffer.byteLength(text.slice(0, text.indexOf('\n') + 1));
  for (const row of rows) {
    offsets.set(rowKey(row.ngram, row.year), offset);
    offset += Buffer.byteLength(`${row.ngram}\t${row.year}\t${row.match_count}\t${row.volume_count}\n`);
  }
  return offsets;
}

/** The key of a put request, as rowOffsets names it. */
export function putKey(request: WriteRequest): string {
  const item = request.PutRequest!.Item!;
  return rowKey(item.ngram.S!, item.year.N!);
}

/** Index of the chunk holding byte `offset`. */
export const chunkAt = (chunks: readonly Chunk[], offset: number) =>
  chunks.findIndex((c) => c.start <= offset && offset < c.end);

/**
 * A wiring with a ledger of its own (a fresh table): imports run with it see only each other's lanes, not those
 * of the other tests running at the same time against the same local engine.
 */
export function withOwnLedger(wiring: Wiring = faultWiring()): Wiring {
  return { ...wiring, ledger: new ImportLedger(wiring.dynamodb, uniqueName('ledger')) };
}

/**
 * Runs the workflow file through the local runner with the fault-injectable wiring, recording its events
 * and passing them on as they come.
 */
export async function runWithEvents(request: ImportRequest, options: LocalRunOptions = {}) {
  const events: RunnerEvent[] = [];
  const summary: ImportSummary = await runLocalImport(request, {
    wiring: faultWiring(),
    ...options,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  });
  return { summary, events };
}

/** The table holds exactly the file's rows: one item per row, every attribute as the file has it. */
export async function expectTableMatches(table: string, rows: readonly NgramRow[]): Promise<void> {
  const items = await scanAll(table);
  expect(items).toHaveLength(rows.length);
  const byKey = new Map(items.map((item) => [rowKey(item.ngram.S!, item.year.N!), item]));
  for (const row of rows) {
    expect(byKey.get(rowKey(row.ngram, row.year))).toEqual({
      ngram: { S: row.ngram },
      year: { N: String(row.year) },
      match_count: { N: String(row.match_count) },
      volume_count: { N: String(row.volume_count) },
    });
  }
}

/** What DynamoDB answers a throttled request with, as the SDK's deserializer builds it. */
export function throttleError(): ProvisionedThroughputExceededException {
  const error = new ProvisionedThroughputExceededException({
    message: 'The level of configured provisioned throughput for the table was exceeded.',
    $metadata: { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 },
  });
  return Object.assign(error, { $retryable: { throttling: true } });
}

/** A request DynamoDB refuses outright (not retryable). */
export function validationError(message: string): DynamoDBServiceException {
  return new DynamoDBServiceException({
    name: 'ValidationException',
    $fault: 'client',
    message,
    $metadata: { httpStatusCode: 400 },
  });
}

/** A promise and its resolve, for faults that hold a request until the test lets go. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
