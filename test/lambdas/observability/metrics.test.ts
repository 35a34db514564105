import { describe, expect, it } from 'vitest';
import { stateMachineName } from '../../../lambdas/observability/metric-names.js';
import { createImportMetrics, publishImportMetrics } from '../../../lambdas/observability/metrics.js';
import { parseEmf } from '../../e2e/metrics/emf.js';
import { outputLines } from './output-lines.js';

describe('publishImportMetrics (Powertools Metrics)', () => {
  const values = { ItemsWritten: 975, ItemsRejected: 2, ThrottledRetries: 4, UnprocessedRetries: 3, InFlightLimit: 8 };

  it('writes one line of EMF: namespace S3DdbImport, the one dimension StateMachine, five metrics with their units', () => {
    const metrics = createImportMetrics();
    const lines = outputLines(() =>
      publishImportMetrics(metrics, { stateMachine: 'imports', values, metadata: { chunk: 3, table: 'ngrams' } }),
    );
    expect(lines).toHaveLength(1);
    const document = JSON.parse(lines[0]);
    // The dimension set the dashboard and alarm graph: Powertools' default `service` dimension is not in it.
    expect(document._aws.CloudWatchMetrics).toEqual([
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
    ]);
    expect(document).toMatchObject({ StateMachine: 'imports', chunk: '3', table: 'ngrams', ...values });
    expect(document).not.toHaveProperty('service');
    expect(parseEmf(lines[0]).map(({ name, value }) => [name, value])).toEqual(Object.entries(values));
  });

  it('names the state machine by its name when given its ARN', () => {
    const metrics = createImportMetrics();
    const arn = 'arn:aws:states:eu-west-1:111122223333:stateMachine:Pipeline12AB';
    const [line] = outputLines(() => publishImportMetrics(metrics, { stateMachine: arn, values }));
    expect(JSON.parse(line).StateMachine).toBe('Pipeline12AB');
  });

  it("keeps each invocation's figures apart when one container's Metrics publishes twice", () => {
    const metrics = createImportMetrics();
    const lines = outputLines(() => {
      publishImportMetrics(metrics, { stateMachine: 'a', values, metadata: { chunk: 1 } });
      publishImportMetrics(metrics, { stateMachine: 'b', values: { ...values, ItemsWritten: 5 } });
    });
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([
      { StateMachine: 'a', ItemsWritten: 975, chunk: '1' },
      { StateMachine: 'b', ItemsWritten: 5 },
    ]);
    expect(JSON.parse(lines[1])).not.toHaveProperty('chunk');
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
