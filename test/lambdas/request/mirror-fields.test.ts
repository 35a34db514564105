import { describe, expect, it } from 'vitest';
import { BUILT_IN_CHOICES, resolveImportRequest } from '../../../lambdas/request/resolve-request.js';

const BASE = { bucket: 'b', key: 'in/rows.csv', table: 't' };
/** The built-in modes and `sync` (the mode a mirror runs with), as a wiring holding it names them. */
const CHOICES = { ...BUILT_IN_CHOICES, modeNames: [...BUILT_IN_CHOICES.modeNames, 'sync'] };
const resolve = (fields: object) => resolveImportRequest({ ...BASE, ...fields }, undefined, CHOICES);
const problems = (fields: object) => {
  try {
    resolve(fields);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the request resolved');
};

describe('a mirror in the request', () => {
  it('resolves mirror with its default maxDeletePercent (10), and a scope when given', () => {
    expect(resolve({ mode: 'sync', mirror: true })).toMatchObject({ mirror: true, maxDeletePercent: 10 });
    const scoped = resolve({ mode: 'sync', mirror: true, scope: { partitionKeyPrefix: 'P#' }, maxDeletePercent: 2.5 });
    expect(scoped).toMatchObject({ mirror: true, scope: { partitionKeyPrefix: 'P#' }, maxDeletePercent: 2.5 });
  });

  it('adds no mirror field to a request without one', () => {
    const resolved = resolve({ mode: 'sync', mirror: false });
    expect(['mirror', 'scope', 'maxDeletePercent'].filter((field) => field in resolved)).toEqual([]);
  });

  it.each([
    // mirror only with sync: put would rewrite every item and still need the table's keys.
    [{ mirror: true }, 'mirror: only with "mode": "sync", got mode "put"'],
    [{ mode: 'delete', mirror: true }, 'mirror: only with "mode": "sync", got mode "delete"'],
    [{ mode: 'sync', mirror: 'yes' }, 'mirror: must be true or false, got "yes"'],
    [{ mode: 'sync', scope: { partitionKeyPrefix: 'P' } }, 'scope: only with "mirror": true (CLI: --mirror)'],
    [{ mode: 'sync', maxDeletePercent: 5 }, 'maxDeletePercent: only with "mirror": true (CLI: --mirror)'],
    [{ mode: 'sync', mirror: true, scope: { partitionKeyPrefix: '' } }, 'scope: must be { "partitionKeyPrefix"'],
    [{ mode: 'sync', mirror: true, scope: { prefix: 'P' } }, 'scope: must be { "partitionKeyPrefix"'],
    [
      { mode: 'sync', mirror: true, maxDeletePercent: 101 },
      'maxDeletePercent: must be a number from 0 to 100, got 101',
    ],
  ])('fails for %j, naming the field', (fields, message) => {
    expect(problems(fields)).toContain(message);
  });
});
