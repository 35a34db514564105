import { expect } from 'vitest';
import { ImportLedger } from '../../../lambdas/admission/ledger.js';
import type { StateEvent } from '../../../cli/local-run/runner.js';
import { generateNgrams } from '../../fixtures/ngrams.js';
import { runWithEvents } from '../faults/fixture.js';
import { dynamodb, putText } from '../harness.js';
import { redriveChunks } from '../trusted/redriven-chunks.js';
import type { Wiring } from '../../../lambdas/wiring/wiring.js';

const NGRAM_TYPES = { match_count: 'N', volume_count: 'N' } as const;

/** What of recorded-imports.ts ImportTargets this import uses (named here, so the two files do not import each other). */
interface RedriveTargets {
  readonly wiring: Wiring;
  readonly bucket: string;
  readonly ngramsTable: string;
}

/**
 * A chunk a redrive re-runs after its import's lanes went back (lambdas/import/chunk-admission.ts), while an import
 * that ended without giving its lanes back holds all of the table's: ImportChunk finds its import holds none (its
 * renewal's UpdateItem), reads the lanes item (GetItem) and the holders (Scan), takes the stale one's lanes back
 * (Delete + Update) and takes its own (Put + Update), as preflight admits (test/e2e/trusted/redrive.test.ts shows the
 * whole redrive).
 */
export async function redrivenChunkReadmits(t: RedriveTargets): Promise<void> {
  const { text, rows } = generateNgrams(300, { seed: 13 });
  await putText(t.bucket, 'imports/redriven.tsv', text);
  const request = { bucket: t.bucket, key: 'imports/redriven.tsv', table: t.ngramsTable, types: NGRAM_TYPES };
  let chunkInput: unknown;
  const onStateEvent = (e: StateEvent) => {
    if (e.type === 'StateEntered' && e.state?.name === 'ImportChunk')
      chunkInput = (e.state as { input?: unknown }).input;
  };
  const run = await runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control, onStateEvent });
  expect(run.summary).toMatchObject({ status: 'SUCCEEDED', written: rows.length });

  // The ghost is the test's doing, on a client of its own: only the handlers' calls are recorded.
  const longAgo = new ImportLedger(dynamodb, t.wiring.ledger.tableName, () => 0);
  const ghost = { table: t.ngramsTable, want: 40, capped: false, poolLanes: null, tableLanes: 40, maxWriteRate: 0 };
  expect((await longAgo.admit({ ...ghost, execution: 'ghost-of-redrive' })).granted).toBe(40);
  const [counts] = (await redriveChunks([chunkInput], {
    wiring: t.wiring,
    concurrency: t.wiring.control,
  })) as number[][];
  expect(counts[2]).toBe(rows.length);
  expect(await longAgo.read('ghost-of-redrive')).toBeNull();
  const { executionName } = (chunkInput as { job: { executionName: string } }).job;
  await longAgo.release(executionName); // as the redriven execution's Summarize would, unrecorded
}
