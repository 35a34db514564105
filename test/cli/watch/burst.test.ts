import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { mapAtMost } from '../../../lambdas/async/map-at-most.js';
import { readLambdaConfig } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { startLocalWatch, type WatchEvent } from '../../../cli/watch/start-local-watch.js';
import { generateNgrams, type NgramRow } from '../../fixtures/ngrams.js';
import { expectTableMatches, withOwnLedger } from '../../e2e/faults/fixture.js';
import { ensureLedgerTable } from '../../../cli/local-run/local-stack.js';
import { createBucket, createTable, putText } from '../../e2e/harness.js';

const TYPES = { year: 'N', match_count: 'N', volume_count: 'N' } as const;
const ROWS_PER_FILE = 500;
/**
 * A lane renews its lease once when its invocation starts and then every interval: an hour here, so the count of
 * renewals is one per invocation whatever the machine's speed (a busy machine's slower imports renewed more often).
 */
const RENEW_ONCE_MS = 60 * 60 * 1000;

/** Counts the calls a client sends that name `table`: the control plane's calls, when `table` is the ledger. */
function countCallsOn(client: DynamoDBClient, table: string) {
  const calls: string[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (JSON.stringify(args.input).includes(table)) calls.push(context.commandName ?? '?');
      return next(args);
    },
    { step: 'initialize', name: `countCallsOn-${table}` },
  );
  return calls;
}

/**
 * `count` part files of 500 rows uploaded at once under a watched prefix, as Spark or `aws s3 cp --recursive` put
 * them: waits for every import to end, and returns what the ledger was asked.
 */
async function burst(count: number) {
  const bucket = await createBucket();
  const table = await createTable(['ngram', 'S'], ['year', 'N']);
  const wiring = withOwnLedger(
    createWiring({ config: { ...readLambdaConfig(), liveSettingsIntervalMs: RENEW_ONCE_MS } }),
  );
  const calls = countCallsOn(wiring.dynamodb, wiring.ledger.tableName);
  await ensureLedgerTable(wiring.dynamodb, wiring.ledger.tableName);
  calls.length = 0; // making the table is the watch's setup, not an import's
  const ended: WatchEvent[] = [];
  let allEnded = () => undefined as void;
  const done = new Promise<void>((resolve) => (allEnded = resolve));
  const watch = await startLocalWatch({
    watches: [{ prefix: 'parts/', table, types: { ...TYPES } }],
    bucket,
    region: 'us-east-1',
    wiring,
    pollIntervalMs: 100,
    onEvent: (event) => {
      if (event.type !== 'done' && event.type !== 'failed') return;
      ended.push(event);
      if (ended.length === count) allEnded();
    },
  });
  const files = Array.from({ length: count }, (_, i) => {
    // Each file its own keys, so the table must end up holding every row of every file.
    const { rows } = generateNgrams(ROWS_PER_FILE, { seed: i + 1 });
    const tagged: NgramRow[] = rows.map((row) => ({ ...row, ngram: `f${i}-${row.ngram}` }));
    const text = ['ngram\tyear\tmatch_count\tvolume_count', ...tagged.map((r) => Object.values(r).join('\t'))];
    return { key: `parts/part-${String(i).padStart(5, '0')}.tsv`, text: `${text.join('\n')}\n`, rows: tagged };
  });
  try {
    await mapAtMost(files, 16, (f) => putText(bucket, f.key, f.text));
    await done;
  } finally {
    await watch.stop();
  }
  return { table, files, ended, calls };
}

describe('a burst of uploads under a watched prefix (local watch)', () => {
  it('imports every row of 20 and of 100 part files, asking the ledger a bounded number of times per file', async () => {
    const results = [];
    for (const count of [20, 100]) {
      const { table, files, ended, calls } = await burst(count);
      expect(ended.filter((e) => e.type === 'failed')).toEqual([]);
      expect(ended.map((e) => e.type === 'done' && e.summary.written)).toEqual(files.map(() => ROWS_PER_FILE));
      await expectTableMatches(
        table,
        files.flatMap((f) => f.rows),
      );
      const byCommand = Object.fromEntries([...new Set(calls)].map((c) => [c, calls.filter((d) => d === c).length]));
      results.push({ count, calls: calls.length, perFile: calls.length / count, byCommand });
    }
    // O(N): each import asks the ledger a bounded number of times, however many run at once: admit (read the lanes
    // item, one transaction: 2), renew (1 per invocation: RENEW_ONCE_MS), release (read its item, one transaction: 2), and 2
    // per ask while waiting for lanes (the lanes item and a Scan of the holders; 100 files into one table's 40 lanes:
    // 60 wait, their asks 1 s, 2 s, ... apart). Measured: 5 a file for 20 files, 7.1 for 100. The old per-import
    // listing of running executions grew as N x N.
    console.log(JSON.stringify({ ledgerCalls: results }));
    // The waiting asks grow with how long the 60 wait (a doubling back-off: about log2 of the wait), so with the
    // machine's speed: 7.4 a file quiet, 9.9-11.1 at a load of 20 on 2 cores. The bound tells O(N) from the old
    // N x N, which gives 100/20 = 5 times the 20-file figure, and holds at any speed below that: 3 times.
    for (const { perFile } of results) expect(perFile).toBeLessThanOrEqual(16);
    expect(results[1].perFile).toBeLessThanOrEqual(results[0].perFile * 3);
  }, 600_000);
});
