import { describe, expect, it } from 'vitest';
import { parseLocalCommand } from '../../../cli/commands/local.js';
import { parseEstimateCommand } from '../../../cli/commands/estimate.js';
import { parseStartCommand } from '../../../cli/commands/start.js';
import { buildRequest } from '../../../cli/flags/request-file.js';
import { InvalidRequestError } from '../../../lambdas/contract/errors.js';

const LOCATION = { bucket: 'b', key: 'k.csv' };

describe('--attr NAME=TEMPLATE and --exclude a,b', () => {
  it('become the request fields attributes and exclude, on local, start and estimate', () => {
    const args = ['--table', 't', '--attr', 'PK=USER#{user_id}', '--attr', 'SK=ORDER#{date}#{order_id}'];
    const more = [...args, '--attr', 'entity=Order', '--exclude', 'user_id,order_id'];
    const expected = {
      attributes: { PK: 'USER#{user_id}', SK: 'ORDER#{date}#{order_id}', entity: 'Order' },
      exclude: ['user_id', 'order_id'],
    };
    expect(parseLocalCommand(['f.csv', ...more]).request).toMatchObject(expected);
    expect(buildRequest(parseStartCommand(['s3://b/k.csv', ...more]).request, {}, LOCATION).input).toEqual({
      ...LOCATION,
      table: 't',
      ...expected,
    });
    expect(parseEstimateCommand(['s3://b/k.csv', ...more]).request).toMatchObject(expected);
  });

  it('splits at the first =: a template may hold = itself', () => {
    expect(parseLocalCommand(['f.csv', '--table', 't', '--attr', 'q=a={a}&b={b}']).request).toMatchObject({
      attributes: { q: 'a={a}&b={b}' },
    });
  });

  it('merges --attr over a request file by name, and --exclude replaces its list', () => {
    const flags = parseStartCommand(['s3://b/k.csv', '--attr', 'PK=U#{id}', '--exclude', 'c']).request;
    const file = { table: 't', attributes: { PK: 'OLD#{id}', entity: 'User' }, exclude: ['a', 'b'] };
    expect(buildRequest(flags, file, LOCATION).input).toMatchObject({
      attributes: { PK: 'U#{id}', entity: 'User' },
      exclude: ['c'],
    });
  });

  it("leaves a request file's fields as they are when the flags are not given", () => {
    const flags = parseStartCommand(['s3://b/k.csv']).request;
    const file = { table: 't', attributes: { PK: 'U#{id}' }, exclude: ['id'] };
    expect(buildRequest(flags, file, LOCATION).input).toEqual({ ...LOCATION, ...file });
  });

  it.each([
    ['--attr has no =', ['--table', 't', '--attr', 'PK'], '--attr: expected NAME=TEMPLATE, got "PK"'],
    ['--attr has no name', ['--table', 't', '--attr', '=x'], '--attr: expected NAME=TEMPLATE, got "=x"'],
    [
      '--attr names one attribute twice',
      ['--table', 't', '--attr', 'a=1', '--attr', 'a=2'],
      '--attr: "a" is given twice',
    ],
    ['--exclude has an empty name', ['--table', 't', '--exclude', 'a,,b'], '--exclude: expected a,b,c, got "a,,b"'],
    // local --request runs the payload as it is (as for every flag that shapes the request).
    ['--attr comes with local --request', ['--request', 'r.json', '--attr', 'a=1'], '--attr cannot be combined'],
    ['--exclude comes with local --request', ['--request', 'r.json', '--exclude', 'a'], '--exclude cannot be'],
  ])('fails when %s', (_, args, message) => {
    expect(() => parseLocalCommand(['f.csv', ...args])).toThrow(message);
  });

  it('fails when a template does not parse, naming the attribute, before anything starts', () => {
    const flags = parseStartCommand(['s3://b/k.csv', '--table', 't', '--attr', 'PK=USER#{id']).request;
    expect(() => buildRequest(flags, {}, LOCATION)).toThrow(InvalidRequestError);
    expect(() => buildRequest(flags, {}, LOCATION)).toThrow('attributes.PK: a lone "{"');
  });
});
