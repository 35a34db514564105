import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandHelp, mainHelp } from '../../cli/command-line/help.js';
import { COMMANDS } from '../../cli/commands/command-table.js';
import { ESTIMATE } from '../../cli/commands/estimate.js';
import { LOCAL } from '../../cli/commands/local.js';
import { START } from '../../cli/commands/start.js';
import { STATUS } from '../../cli/commands/status.js';
import { startStandIn, type StandIn } from './admission/stand-in.js';
import { runCli } from './cli-process.js';

const START_USAGE = commandHelp(START);
const STATUS_USAGE = commandHelp(STATUS);
const ESTIMATE_USAGE = commandHelp(ESTIMATE);

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env });

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn();
});
afterAll(() => standIn.close());

describe("the CLI's commands and conventions", () => {
  it.each([
    [['--help'], mainHelp(COMMANDS)],
    [['local', '--help'], commandHelp(LOCAL)],
    [['start', '--help'], START_USAGE],
    [['status', '-h'], STATUS_USAGE],
    [['estimate', '--help'], ESTIMATE_USAGE],
  ])('%j prints its usage on stdout and exits 0', async (args, usage) => {
    const run = await cli(args);
    expect(run).toEqual({ code: 0, stdout: `${usage}\n`, stderr: '' });
  });

  it.each([
    [
      [
        'start',
        's3://b/k.csv',
        '--table',
        't',
        '--stack',
        'a',
        '--state-machine',
        'arn:aws:states:us-east-1:123456789012:stateMachine:m',
      ],
      '--stack and --state-machine name the same thing: give one',
      'start',
    ],
    [['status'], 'expected one <execution-arn|name>, got 0', 'status'],
    [['estimate', 'x.csv', '--tabel', 't'], 'unknown flag --tabel (did you mean --table?)', 'estimate'],
    [['start', 's3://b/k.csv', '--table', 't', '--part-mib', '4'], '--part-mib: invalid value "4"', 'start'],
  ])(
    'fails when a flag is wrong: %j exits 1 with the problem in one line and where the help is, on stderr',
    async (args, problem, command) => {
      const run = await cli(args);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`error: ${problem}\nsee: s3-ddb-import ${command} --help\n`);
    },
  );

  it('fails when the stack is not deployed, naming the fix on stderr and FAILED in --json on stdout', async () => {
    standIn.answers = {
      DescribeStacks: () => ({
        status: 400,
        xml:
          '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type><Code>ValidationError</Code>' +
          '<Message>Stack with id S3DdbImport does not exist</Message></Error><RequestId>stand-in</RequestId></ErrorResponse>',
      }),
    };
    const run = await cli(['start', 's3://b/k.csv', '--table', 't', '--json'], {
      AWS_ENDPOINT_URL_CLOUDFORMATION: standIn.endpoint,
    });
    expect(run.code).toBe(1);
    const message =
      'stack "S3DdbImport" not found (Stack with id S3DdbImport does not exist): deploy it with `npx cdk deploy`, ' +
      'name it with --stack NAME, check AWS_REGION, or give --state-machine ARN';
    expect(run.stderr).toBe(`start failed: CloudCommandError: ${message}\n`);
    expect(JSON.parse(run.stdout)).toEqual({ status: 'FAILED', error: 'CloudCommandError', message });
  });
});
