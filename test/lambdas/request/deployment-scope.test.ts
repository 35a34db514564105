import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../lambdas/contract/errors.js';
import { checkDeploymentScope, type DeploymentScope } from '../../../lambdas/request/deployment-scope.js';

const REQUEST = { bucket: 'other', table: 'events' };

describe('checkDeploymentScope', () => {
  it.each<[string, DeploymentScope]>([
    // Local runs: no BUCKET_NAME, no ALLOWED_TABLES.
    ['nothing is configured', {}],
    ['both are null', { bucketName: null, allowedTables: null }],
    // The deployment's own bucket and one of its tables.
    ['the bucket and table are the deployment', { bucketName: 'other', allowedTables: ['ngrams', 'events'] }],
  ])('passes when %s', (_, scope) => {
    expect(() => checkDeploymentScope(REQUEST, scope)).not.toThrow();
  });

  it.each<[string, DeploymentScope, string[]]>([
    [
      'the bucket is not the stack bucket',
      { bucketName: 'imports-bucket' },
      ['bucket: "other" is not the bucket this deployment reads (imports-bucket)'],
    ],
    [
      'the table is not one of its tables',
      { allowedTables: ['ngrams', 'orders'] },
      ['table: "events" is not one this deployment may write (ngrams, orders)'],
    ],
    // Both wrong: one error naming both fields, as the request validator does.
    [
      'both are outside the deployment',
      { bucketName: 'imports-bucket', allowedTables: ['ngrams'] },
      [
        'bucket: "other" is not the bucket this deployment reads (imports-bucket)',
        'table: "events" is not one this deployment may write (ngrams)',
      ],
    ],
  ])('fails when %s, naming what the deployment holds', (_, scope, problems) => {
    const error = (() => {
      try {
        checkDeploymentScope(REQUEST, scope);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ problems, message: `invalid request: ${problems.join('; ')}` });
  });
});
