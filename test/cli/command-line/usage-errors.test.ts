import { describe, expect, it } from 'vitest';
import { closest } from '../../../cli/command-line/did-you-mean.js';
import { runCli } from '../../../cli/commands/run-cli.js';
import { runOnTerminal, screenLines } from '../../support/terminal.js';
import { capture } from '../../support/cloud-clients.js';

const ARN = 'arn:aws:states:eu-west-1:111122223333:stateMachine:M';

describe('a usage error is one line with a suggestion, then where the help is', () => {
  it.each([
    // The typo of the issue: the nearest flag, one swap away.
    [['local', 'f.csv', '--tabel', 't'], 'unknown flag --tabel (did you mean --table?)', 'local'],
    // A flag started but not finished: the one flag it starts.
    [['local', 'f.csv', '--create', '--pk', 'id'], 'unknown flag --create (did you mean --create-table?)', 'local'],
    // Nothing near: no suggestion rather than a wrong one.
    [['start', 's3://b/k', '--zzzzzz'], 'unknown flag --zzzzzz', 'start'],
    // A value flag followed by another flag: its value was forgotten.
    [['local', 'f.csv', '--table', '--json'], '--table needs a value (--table T)', 'local'],
    [['local', 'f.csv', '--table', 't', '--json=yes'], '--json takes no value, got "yes"', 'local'],
    // choices: refused by the parser from the flag's spec, with the nearest choice.
    [
      ['local', 'f.csv', '--table', 't', '--mode', 'dlete'],
      '--mode: expected put|insert|update|delete|sync, got "dlete" (did you mean delete?)',
      'local',
    ],
    // conflicts: declared on the spec, with the reason.
    [
      ['status', 'x', '--stack', 'S', '--state-machine', ARN],
      '--stack and --state-machine name the same thing: give one',
      'status',
    ],
    // parse: the spec's own parser names the flag.
    [['local', 'f.csv', '--table', 't', '--concurrency', '0'], '--concurrency: invalid value "0"', 'local'],
    [['local', 'f.csv'], '--table is required', 'local'],
  ])('%j', async (argv, problem, command) => {
    const shown = capture();
    expect(await runCli(argv, shown.output)).toBe(1);
    expect(shown.err).toEqual([`error: ${problem}`, `see: s3-ddb-import ${command} --help`]);
    expect(shown.out).toEqual([]);
  });

  it('fails when the command is unknown: the nearest command, and the top-level help', async () => {
    const shown = capture();
    expect(await runCli(['lcoal', 'f.csv'], shown.output)).toBe(1);
    expect(shown.err).toEqual(['error: unknown command "lcoal" (did you mean local?)', 'see: s3-ddb-import --help']);
  });
});

describe('on a terminal', () => {
  it('the typo reads as two lines, the usage nowhere', async () => {
    const run = await runOnTerminal(['local', 'rows.csv', '--tabel', 'people']);
    expect(run.code).toBe(1);
    expect(screenLines(run.screen)).toEqual([
      'error: unknown flag --tabel (did you mean --table?)',
      'see: s3-ddb-import local --help',
    ]);
  });
});

describe('closest', () => {
  it.each([
    ['tabel', ['table', 'types'], 'table'], // one swap
    ['tabl', ['table', 'types'], 'table'], // one deletion (and a start)
    ['concurency', ['concurrency', 'columns'], 'concurrency'], // one insertion
    ['cd', ['ab', 'json'], null], // two edits of two letters is another word
    ['mode', ['mode-x', 'model'], 'model'], // two flags start with it: the nearer by edits (1 against 2)
  ] as const)('%s in %j is %s', (word, candidates, expected) => {
    expect(closest(word, candidates)).toBe(expected);
  });
});
