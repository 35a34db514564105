import { describe, expect, it } from 'vitest';
import type { LiveAction } from '../../../cli/commands/live-args.js';
import { parseLiveCommand } from '../../../cli/commands/live-commands.js';
import { describeChange } from '../../../cli/commands/live.js';

const NAME = 'ngrams-1gram-20250314-092653-3fa9c1';
const ARN = `arn:aws:states:eu-west-1:111122223333:execution:PipelineStateMachine8A1F:${NAME}`;

describe('parseLiveCommand', () => {
  const deployed = { local: false, stack: undefined, ledgerTable: undefined };
  it.each([
    // the deployed stack by default: no --stack means S3DdbImport, chosen where the ledger is read
    ['rate', [NAME, '1500'], { kind: 'rate', itemsPerSecond: 1500 }, deployed, false],
    // 0 lifts the cap; an ARN is cut to its name, the ledger's key
    ['rate', [ARN, '0', '--json'], { kind: 'rate', itemsPerSecond: 0 }, deployed, true],
    ['pause', [NAME, '--local'], { kind: 'pause' }, { local: true }, false],
    ['resume', [NAME, '--stack', 'Imports', '--json'], { kind: 'resume' }, { ...deployed, stack: 'Imports' }, true],
    ['pause', [NAME, '--ledger-table', 'L'], { kind: 'pause' }, { ...deployed, ledgerTable: 'L' }, false],
  ] as const)('%s %j', (kind, args, action, target, json) => {
    expect(parseLiveCommand(kind, [...args])).toEqual({ action, execution: NAME, target, json });
  });

  it.each([
    ['rate', [NAME], 'expected <execution> <items/s>, got 1 arguments'],
    ['pause', [NAME, '10'], 'expected <execution>, got 2 arguments'],
    ['rate', [NAME, '1.5'], '<items/s>: expected a whole number, 0 or more (0 = uncapped), got "1.5"'],
    ['rate', [NAME, '1e3'], '<items/s>: expected a whole number, 0 or more (0 = uncapped), got "1e3"'],
    ['rate', [NAME, 'fast'], '<items/s>: expected a whole number, 0 or more (0 = uncapped), got "fast"'],
    ['rate', [NAME, '99999999999999999'], 'got "99999999999999999"'],
    ['rate', [NAME, '-5'], 'unknown flag -5'],
    ['pause', [NAME, '--local', '--stack', 'S'], '--local and --stack name different places: give one'],
    ['pause', [NAME, '--local', '--ledger-table', 'L'], '--local and --ledger-table name different places: give one'],
    ['pause', [NAME, '--stack', 'S', '--ledger-table', 'L'], '--ledger-table skips the stack'],
    ['resume', [NAME, '--state-machine', 'arn'], 'unknown flag --state-machine'],
    [
      'pause',
      ['arn:aws:states:eu-west-1:111122223333:stateMachine:M'],
      '<execution>: expected an execution name or arn',
    ],
    ['pause', [''], '<execution>: empty'],
  ] as const)('fails when %s %j is given: %s', (kind, args, problem) => {
    expect(() => parseLiveCommand(kind, [...args])).toThrow(problem);
  });
});

describe('what rate, pause and resume print', () => {
  const settings = { execution: NAME, table: 'ngrams', lanes: 8, maxWriteRate: 1500, paused: false };
  it.each<[LiveAction, typeof settings, string]>([
    [
      { kind: 'rate', itemsPerSecond: 1500 },
      settings,
      `${NAME}: at most 1500 items/s (8 lanes into ngrams follow within about 5 s)`,
    ],
    [
      { kind: 'rate', itemsPerSecond: 0 },
      { ...settings, maxWriteRate: 0 },
      `${NAME}: uncapped (8 lanes into ngrams follow within about 5 s)`,
    ],
    // a new rate for a paused import holds from its resume: the line says it is still paused
    [
      { kind: 'rate', itemsPerSecond: 10 },
      { ...settings, maxWriteRate: 10, paused: true },
      `${NAME}: at most 10 items/s (8 lanes into ngrams follow within about 5 s; paused: s3-ddb-import resume ${NAME} to write again)`,
    ],
    [
      { kind: 'pause' },
      { ...settings, paused: true },
      `${NAME}: paused (8 lanes into ngrams stop at their next record boundary and hold their checkpoints; s3-ddb-import resume ${NAME} goes on)`,
    ],
    [
      { kind: 'resume' },
      settings,
      `${NAME}: resumed, at most 1500 items/s (8 lanes into ngrams go on from their checkpoints at their next ask, within 5 minutes)`,
    ],
  ])('%j', (action, live, line) => {
    expect(describeChange(action, live)).toBe(line);
  });
});
