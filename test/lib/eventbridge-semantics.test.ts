import { describe, expect, it } from 'vitest';
import { applyInputTransformer, matchesEventPattern, readJsonPath } from '../../lib/eventbridge-semantics.js';

/** The EC2 event of EventBridge's "Input transform examples" (eb-transform-target-input.html). */
const EC2_EVENT = {
  version: '0',
  id: '7bf73129-1428-4cd3-a780-95db273d1602',
  'detail-type': 'EC2 Instance State-change Notification',
  source: 'aws.ec2',
  account: '123456789012',
  time: '2015-11-11T21:29:54Z',
  region: 'us-east-1',
  resources: ['arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111'],
  detail: { 'instance-id': 'i-0123456789', state: 'RUNNING' },
};
const EC2_PATHS = {
  timestamp: '$.time',
  instance: '$.detail.instance-id',
  state: '$.detail.state',
  resource: '$.resources[0]',
};

describe.each([
  // The page's JSON template: bare placeholders become JSON values, strings quoted.
  [
    'bare placeholders',
    '{"timestamp": <timestamp>, "instance": <instance>, "state": [9, <state>, true], "Transformed": "Yes"}',
    { timestamp: '2015-11-11T21:29:54Z', instance: 'i-0123456789', state: [9, 'RUNNING', true], Transformed: 'Yes' },
  ],
  // The API reference's example: placeholders inside a quoted string give their text.
  [
    'placeholders inside a string',
    '{"myInstance": <instance>,"myStatus": "<instance> is in state \\"<state>\\""}',
    { myInstance: 'i-0123456789', myStatus: 'i-0123456789 is in state "RUNNING"' },
  ],
  // An array index in a path, and text in <> that names no variable stays as it is.
  [
    'an array index, and a <word> that is no variable',
    '{"r": <resource>, "note": "<none> here"}',
    { r: 'arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111', note: '<none> here' },
  ],
])('applyInputTransformer with %s', (_name, inputTemplate, expected) => {
  it('gives the documented output', () => {
    expect(applyInputTransformer({ inputPathsMap: EC2_PATHS, inputTemplate }, EC2_EVENT)).toEqual(expected);
  });
});

describe('applyInputTransformer', () => {
  it('escapes a value with quotes and backslashes, so the input stays JSON', () => {
    const event = { detail: { object: { key: 'a "quoted" \\ key' } } };
    expect(
      applyInputTransformer({ inputPathsMap: { k: '$.detail.object.key' }, inputTemplate: '{"key":<k>}' }, event),
    ).toEqual({ key: 'a "quoted" \\ key' });
  });

  it('fails when the event lacks a mapped path', () => {
    expect(() =>
      applyInputTransformer({ inputPathsMap: { k: '$.detail.nope' }, inputTemplate: '{"key":<k>}' }, EC2_EVENT),
    ).toThrow('the event has no $.detail.nope for <k>');
  });

  it('fails when a path uses syntax beyond dot notation and indices', () => {
    expect(() => readJsonPath(EC2_EVENT, '$..state')).toThrow('unsupported JSON path "$..state"');
  });
});

describe.each([
  // Exact values: any one of the list.
  [{ source: ['aws.s3', 'aws.ec2'] }, true],
  [{ source: ['aws.s3'] }, false],
  // Nested fields, prefix and numeric ranges.
  [{ detail: { state: [{ prefix: 'RUN' }] } }, true],
  [{ detail: { state: [{ prefix: 'STOP' }] } }, false],
  [{ detail: { 'instance-id': [{ prefix: 'i-' }], state: ['RUNNING'] } }, true],
  // A field the event lacks never matches.
  [{ detail: { size: [{ numeric: ['>', 0] }] } }, false],
])('matchesEventPattern(%j) on the EC2 event', (pattern, expected) => {
  it(`is ${expected}`, () => expect(matchesEventPattern(pattern, EC2_EVENT)).toBe(expected));
});

describe.each([
  [0, false],
  [1, true],
  [5, true],
  [10, false],
])('a numeric [">", 0, "<", 10] pattern on size %d', (size, expected) => {
  it(`is ${expected}`, () => {
    expect(matchesEventPattern({ detail: { size: [{ numeric: ['>', 0, '<', 10] }] } }, { detail: { size } })).toBe(
      expected,
    );
  });
});

describe('matchesEventPattern', () => {
  it('fails when the pattern uses an operator it does not implement', () => {
    expect(() => matchesEventPattern({ source: [{ suffix: '.s3' } as never] }, EC2_EVENT)).toThrow(
      'unsupported pattern value',
    );
  });
});
