import { describe, expect, it } from 'vitest';
import { readLambdaConfig } from '../../../lambdas/environment/config.js';
import { deployTimeConcurrency } from '../../../lambdas/environment/deploy-time-concurrency.js';
import type { ConcurrencySource } from '../../../lambdas/admission/import-concurrency.js';

/** A control plane that counts the questions it is asked (the Lambda API's stand-in is test/e2e/control-plane). */
function counting(): ConcurrencySource & { asked: number } {
  const plane = {
    asked: 0,
    importConcurrency: async () => {
      plane.asked++;
      return { reserved: null, unreserved: 1000 };
    },
  };
  return plane;
}

describe('deployTimeConcurrency', () => {
  it("answers the stack's reservation without asking the Lambda API, however often preflight asks", async () => {
    const asked = counting();
    const control = deployTimeConcurrency(12, asked);
    for (let i = 0; i < 3; i++) expect(await control.importConcurrency()).toEqual({ reserved: 12, unreserved: null });
    expect(asked.asked).toBe(0);
  });

  it('asks the Lambda API when the stack set no reservation (the unreserved pool changes)', async () => {
    const asked = counting();
    expect(await deployTimeConcurrency(null, asked).importConcurrency()).toEqual({ reserved: null, unreserved: 1000 });
    expect(asked.asked).toBe(1);
  });
});

describe('readLambdaConfig: IMPORT_RESERVED_CONCURRENCY', () => {
  it.each([
    ['12', 12],
    ['0', null], // not a reservation Lambda allows for a function that runs
    ['x', null],
    [undefined, null],
  ])('reads %s inside Lambda as %s', (value, expected) => {
    const env = {
      AWS_LAMBDA_FUNCTION_NAME: 'Preflight',
      ...(value === undefined ? {} : { IMPORT_RESERVED_CONCURRENCY: value }),
    };
    expect(readLambdaConfig(env).importReservedConcurrency).toBe(expected);
  });

  it('ignores it outside Lambda: a shell variable must not bound local runs', () => {
    expect(readLambdaConfig({ IMPORT_RESERVED_CONCURRENCY: '12' }).importReservedConcurrency).toBeNull();
  });
});
