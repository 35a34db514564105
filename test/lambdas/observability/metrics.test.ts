import { describe, expect, it } from 'vitest';
import { importMetricsLine, stateMachineName } from '../../../lambdas/observability/metrics.js';
import { parseEmf } from '../../e2e/metrics/emf.js';

describe('importMetricsLine', () => {
  const values = { ItemsWritten: 975, ItemsRejected: 2, ThrottledRetries: 4, UnprocessedRetries: 3, InFlightLimit: 8 };

  it('is one line of EMF: namespace S3DdbImport, dimension StateMachine, five metrics with their units', () => {
    const line = importMetricsLine({
      stateMachine: 'imports',
      values,
      timestamp: 1_700_000_000_123,
      fields: { chunk: 3 },
    });
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      chunk: 3,
      _aws: {
        Timestamp: 1_700_000_000_123,
        CloudWatchMetrics: [
          {
            Namespace: 'S3DdbImport',
            Dimensions: [['StateMachine']],
            Metrics: [
              { Name: 'ItemsWritten', Unit: 'Count' },
              { Name: 'ItemsRejected', Unit: 'Count' },
              { Name: 'ThrottledRetries', Unit: 'Count' },
              { Name: 'UnprocessedRetries', Unit: 'Count' },
              { Name: 'InFlightLimit', Unit: 'None' },
            ],
          },
        ],
      },
      StateMachine: 'imports',
      ...values,
    });
    expect(parseEmf(line).map(({ name, value }) => [name, value])).toEqual(Object.entries(values));
  });

  it('keeps the metrics when a log field has the same name as one of them', () => {
    const line = importMetricsLine({
      stateMachine: 'm',
      values,
      timestamp: 1,
      fields: { ItemsWritten: 'x', StateMachine: 'y' },
    });
    expect(JSON.parse(line)).toMatchObject({ ItemsWritten: 975, StateMachine: 'm' });
  });
});

describe.each([
  // What $$.StateMachine.Name gives: kept.
  ['s3-ddb-import', 's3-ddb-import'],
  // What $$.StateMachine.Id gives: the name is its last part.
  ['arn:aws:states:eu-west-1:111122223333:stateMachine:Pipeline12AB', 'Pipeline12AB'],
  ['arn:aws-cn:states:cn-north-1:111122223333:stateMachine:imports', 'imports'],
])('stateMachineName(%j)', (input, expected) => {
  it(`is ${expected}`, () => expect(stateMachineName(input)).toBe(expected));
});
