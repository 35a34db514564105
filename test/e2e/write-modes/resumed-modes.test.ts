import { BatchWriteItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { outOfTimeAfter } from '../../../cli/local-run/runner.js';
import type { WriteMode } from '../../../lambdas/contract/import-request.js';
import { generateNgrams, type NgramRow } from '../../fixtures/ngrams.js';
import { createBucket, createTable, dynamodb, putText, runImport, scanAll } from '../harness.js';

/**
 * Clock reads per ImportChunk invocation (cli/local-run/lambda-clock.ts): two set its margin and timer, then one
 * per 25 records, so each invocation stops at a checkpoint after ~200 rows, on any machine.
 */
const IMPORT_READS = 10;
const ROWS = 1500;
/** The table holds every third row's key before the import, with an attribute the file does not have. */
const EXISTING_EVERY = 3;

const keyOf = (r: { ngram: string; year: number }) => `${r.ngram}|${r.year}`;

async function seededTable(rows: NgramRow[]): Promise<string> {
  const table = await createTable(['ngram', 'S'], ['year', 'N']);
  const seeded = rows.filter((_, i) => i % EXISTING_EVERY === 0);
  for (let i = 0; i < seeded.length; i += 25) {
    const requests = seeded.slice(i, i + 25).map((r) => ({
      PutRequest: { Item: { ngram: { S: r.ngram }, year: { N: String(r.year) }, origin: { S: 'before' } } },
    }));
    await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: requests } }));
  }
  return table;
}

/** What each mode leaves for a row's key: the row's values, the item from before, a merge of both, or nothing. */
function expected(mode: WriteMode, row: NgramRow, existed: boolean): Record<string, AttributeValue> | undefined {
  const key = { ngram: { S: row.ngram }, year: { N: String(row.year) } };
  const values = { match_count: { N: String(row.match_count) }, volume_count: { N: String(row.volume_count) } };
  if (mode === 'delete') return undefined;
  if (mode === 'insert' && existed) return { ...key, origin: { S: 'before' } };
  if (mode === 'update' && existed) return { ...key, ...values, origin: { S: 'before' } };
  return { ...key, ...values }; // put and sync: the row's item, whole
}

describe('every mode over checkpoints', () => {
  it.each<WriteMode>(['put', 'insert', 'update', 'delete', 'sync'])(
    '%s resumes each chunk where it stopped: the table is what the mode makes of the file, rows counted once',
    async (mode) => {
      const { text, rows } = generateNgrams(ROWS, { seed: 5 });
      const bucket = await createBucket();
      await putText(bucket, 'in/ngrams.tsv', text);
      const table = await seededTable(rows);
      const types = { match_count: 'N', volume_count: 'N' } as const;
      const request = { bucket, key: 'in/ngrams.tsv', table, types, mode, chunkMiB: 0.02, allowWithoutBackup: true };
      const run = await runImport(request, {
        clocks: { ImportChunk: outOfTimeAfter(IMPORT_READS) },
        maxConcurrency: 2,
      });

      // Several chunks, each over several invocations.
      expect(run.chunks.length).toBeGreaterThan(1);
      expect(run.importCalls.filter((e) => e.type === 'chunk-progress' && !e.done).length).toBeGreaterThan(
        run.chunks.length,
      );
      const existing = Math.ceil(ROWS / EXISTING_EVERY);
      const counts = {
        put: { written: ROWS, skipped: 0, deleted: 0 },
        insert: { written: ROWS - existing, skipped: existing, deleted: 0 },
        update: { written: ROWS, skipped: 0, deleted: 0 },
        delete: { written: 0, skipped: 0, deleted: ROWS },
        // sync writes every row: the seeded keys hold another item (changed), the others none (added).
        sync: { written: ROWS, skipped: 0, deleted: 0 },
      }[mode];
      const { written, skipped, deleted } = run.summary;
      expect(run.summary).toMatchObject({ status: 'SUCCEEDED', mode, rows: ROWS, rejected: 0 });
      expect(written + skipped + deleted).toBe(ROWS);
      if (mode === 'insert') {
        // An insert sent again after a request timeout (its first attempt may have landed: a loaded machine) finds
        // its own item and counts as skipped, as after a Lambda timeout (docs/guides/write-modes.md): never fewer skipped.
        expect(skipped).toBeGreaterThanOrEqual(counts.skipped);
      } else expect({ written, skipped, deleted }).toEqual(counts);
      if (mode === 'sync') {
        expect(run.summary).toMatchObject({ added: ROWS - existing, changed: existing, unchanged: 0 });
      }

      const items = new Map((await scanAll(table)).map((item) => [`${item.ngram.S}|${item.year.N}`, item]));
      expect(items.size).toBe(mode === 'delete' ? 0 : ROWS);
      rows.forEach((row, i) => expect(items.get(keyOf(row))).toEqual(expected(mode, row, i % EXISTING_EVERY === 0)));
    },
  );
});
