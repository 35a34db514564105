import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../fixtures/random.js';
import { expectTableMatches, ngramImport, runWithEvents, throttleError } from './fixture.js';
import { faultBatchWrites, removeFaults } from './inject.js';

/** Share of BatchWriteItem calls refused with a throttle, and share answered with part of the batch unprocessed. */
const THROTTLED = 0.3;
const PARTIAL = 0.3;

describe('a table that throttles and leaves items unprocessed', () => {
  afterEach(removeFaults);

  it('ends identical to the file, every row written once in the counts', async () => {
    // 20,000 rows (~650 KB) in 0.2 MiB chunks: 4 chunks, all at once.
    const { table, request, rows } = await ngramImport(20_000, 0.2);
    // The fault sequence is seeded; which request draws which fault depends on the order calls arrive.
    const random = seededRandom(3);
    const tally = { throttled: 0, partial: 0, clean: 0, unprocessed: 0 };
    // At 'initialize', outside the SDK's own retry, so the BatchWriter's backoff meets every fault.
    faultBatchWrites(table, 'initialize', async (input, send) => {
      const requests = input.RequestItems![table];
      const roll = random();
      if (roll < THROTTLED) {
        tally.throttled++;
        throw throttleError();
      }
      if (roll < THROTTLED + PARTIAL && requests.length > 1) {
        // Only the first part reaches DynamoDB; the rest comes back as UnprocessedItems, as under load.
        const sent = 1 + Math.floor(random() * (requests.length - 1));
        tally.partial++;
        tally.unprocessed += requests.length - sent;
        const output = await send({ ...input, RequestItems: { [table]: requests.slice(0, sent) } });
        return {
          ...output,
          UnprocessedItems: { [table]: [...(output.UnprocessedItems?.[table] ?? []), ...requests.slice(sent)] },
        };
      }
      tally.clean++;
      return send(input);
    });

    const { summary } = await runWithEvents(request, { maxConcurrency: 4 });

    expect(tally.throttled).toBeGreaterThan(100);
    expect(tally.partial).toBeGreaterThan(100);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    expect(summary.chunks).toBeGreaterThanOrEqual(3);
    await expectTableMatches(table, rows);
  }, 240_000); // scattered faults do not cut the writers' limits (write/adaptive-limit.ts): a few seconds
});
