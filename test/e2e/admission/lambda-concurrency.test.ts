import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONCURRENCY_TTL_MS } from '../../../lambdas/admission/lambda-concurrency.js';
import { startStandIn, standInConcurrencySource, type StandIn } from './stand-in.js';

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn();
});
afterAll(() => standIn.close());

describe('the deployed control plane (lambdas/admission/lambda-concurrency.ts)', () => {
  it("reads the import function's reservation, and the account's unreserved concurrency only without one", async () => {
    standIn.requests.length = 0;
    standIn.answers = {
      'GET /2019-09-30/functions/import-fn/concurrency': () => ({}),
      'GET /2016-08-19/account-settings': () => ({
        AccountLimit: { ConcurrentExecutions: 10, UnreservedConcurrentExecutions: 10 },
      }),
    };
    expect(await standInConcurrencySource(standIn, 'import-fn').importConcurrency()).toEqual({
      reserved: null,
      unreserved: 10,
    });
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /2019-09-30/functions/import-fn/concurrency',
      'GET /2016-08-19/account-settings',
    ]);

    standIn.requests.length = 0;
    standIn.answers['GET /2019-09-30/functions/import-fn/concurrency'] = () => ({ ReservedConcurrentExecutions: 12 });
    expect(await standInConcurrencySource(standIn, 'import-fn').importConcurrency()).toEqual({
      reserved: 12,
      unreserved: null,
    });
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /2019-09-30/functions/import-fn/concurrency',
    ]);
  });

  it('asks Lambda once a minute at most, however often preflight asks it (waiting imports ask again and again)', async () => {
    standIn.requests.length = 0;
    standIn.answers = {
      'GET /2019-09-30/functions/import-fn/concurrency': () => ({ ReservedConcurrentExecutions: 7 }),
    };
    let now = 0;
    const control = standInConcurrencySource(standIn, 'import-fn', () => now);
    for (const at of [0, 1_000, CONCURRENCY_TTL_MS - 1]) {
      now = at;
      expect(await control.importConcurrency()).toEqual({ reserved: 7, unreserved: null });
    }
    expect(standIn.requests).toHaveLength(1);
    now = CONCURRENCY_TTL_MS;
    await control.importConcurrency();
    expect(standIn.requests).toHaveLength(2);
  });

  it('asks nothing when it does not know the import function (no IMPORT_FUNCTION_NAME)', async () => {
    standIn.requests.length = 0;
    expect(await standInConcurrencySource(standIn, null).importConcurrency()).toBeNull();
    expect(standIn.requests).toEqual([]);
  });
});
