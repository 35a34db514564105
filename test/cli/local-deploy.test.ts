import { CreateTableCommand, DynamoDBClient, paginateScan, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDir, MINISTACK_VERSION } from '../../cli/services/index.js';
import { CLI, type CliRun } from '../e2e/cli-process.js';
import { runOnTerminal, screenLines } from '../support/terminal.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SAMPLE = join(ROOT, 'sample', 'googlebooks-1gram-sample.tsv');
const REFUSED_APP = join(ROOT, 'test', 'fixtures', 'local-deploy', 'refused-app.mjs');
/** A synth bundles the functions and a deploy creates 30-odd resources: minutes on a loaded machine. */
const DEPLOY_MS = 540_000;

/** A cache dir of its own (so no other run finds this engine), sharing the installed engine's venv. */
async function ownCache(): Promise<string> {
  const cache = await mkdtemp(join(tmpdir(), 'deploy-cache-'));
  const venv = `ministack-${MINISTACK_VERSION}`;
  await symlink(join(cacheDir(), venv), join(cache, venv));
  return cache;
}

/** The run's environment without its engine's endpoints (the CLI looks for the kept engine), in `cache`. */
function envIn(cache: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, S3DDB_CACHE_DIR: cache };
  for (const name of Object.keys(env))
    if (/^AWS_(ENDPOINT_URL|REGION|ACCESS_KEY_ID|SECRET)/.test(name)) delete env[name];
  return env;
}

/** The CLI in its own process with exactly `env`, from the repository root (the default app: its cdk.json). */
function cli(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<CliRun> {
  return new Promise((resolve) =>
    execFile(process.execPath, [CLI, ...args], { env, cwd, timeout: DEPLOY_MS }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** The `export NAME=value` lines of stdout, as variables. */
function exported(stdout: string): Record<string, string> {
  const pairs = stdout.split('\n').filter((line) => line.startsWith('export '));
  return Object.fromEntries(
    pairs.map((line) => line.slice(7)).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
  );
}

/** The sample's rows as the items the watch's types make of them, in key order. */
function sampleItems(): Array<Record<string, AttributeValue>> {
  const [, ...rows] = readFileSync(SAMPLE, 'utf8').trim().split('\n');
  return rows
    .map((row) => row.split('\t'))
    .map(([ngram, year, match, volume]) => ({
      ngram: { S: ngram },
      year: { N: year },
      match_count: { N: match },
      volume_count: { N: volume },
    }))
    .sort(byKey);
}

const byKey = (a: Record<string, AttributeValue>, b: Record<string, AttributeValue>) =>
  `${a.ngram.S}\u0000${a.year.N!.padStart(6, '0')}`.localeCompare(`${b.ngram.S}\u0000${b.year.N!.padStart(6, '0')}`);

describe('local up, local deploy, start, status: a rehearsal on the stack deployed into the local engine', () => {
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    env = envIn(await ownCache());
    const up = await cli(['local', 'up'], env);
    expect(up.code, up.stderr).toBe(0);
  }, DEPLOY_MS);
  afterAll(async () => {
    const down = await cli(['local', 'down', '--json'], env);
    expect(down).toMatchObject({ code: 0, stdout: '{"status":"STOPPED"}\n' });
  }, 60_000);

  it(
    'deploys the default app, prints lines that reach it, and an import through it lands every row',
    async () => {
      const deployed = await cli(['local', 'deploy'], env);
      expect(deployed.code, deployed.stderr).toBe(0);
      expect(deployed.stderr).toContain('engine edit metric-math-alarms: PipelineWatchDeliveryAlarm');
      const vars = exported(deployed.stdout);
      expect(vars.AWS_ENDPOINT_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(deployed.stdout).toMatch(
        /^# {3}StateMachineArn=arn:aws:states:us-east-1:\d{12}:stateMachine:S3DdbImport-/m,
      );
      expect(deployed.stdout).toContain("imports/ngrams/'"); // the aws s3 cp line into the watched prefix
      const rehearsal = { ...env, ...vars };
      const dynamodb = new DynamoDBClient({});
      Object.assign(dynamodb.config, {}); // clients below read `rehearsal` explicitly
      const table = new DynamoDBClient({
        endpoint: vars.AWS_ENDPOINT_URL,
        region: vars.AWS_REGION,
        credentials: { accessKeyId: vars.AWS_ACCESS_KEY_ID, secretAccessKey: vars.AWS_SECRET_ACCESS_KEY },
      });
      await table.send(
        new CreateTableCommand({
          TableName: 'ngrams',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: 'ngram', AttributeType: 'S' },
            { AttributeName: 'year', AttributeType: 'N' },
          ],
          KeySchema: [
            { AttributeName: 'ngram', KeyType: 'HASH' },
            { AttributeName: 'year', KeyType: 'RANGE' },
          ],
        }),
      );
      const types = ['--types', 'match_count=N,volume_count=N'];
      const started = await cli(['start', SAMPLE, '--table', 'ngrams', ...types, '--json'], rehearsal);
      expect(started.code, started.stderr).toBe(0);
      const { executionArn } = JSON.parse(started.stdout.trim().split('\n').at(-1)!);
      const status = await cli(['status', executionArn, '--follow', '--poll-s', '1', '--json'], rehearsal);
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout.trim().split('\n').at(-1)!)).toMatchObject({
        status: 'SUCCEEDED',
        rows: 1200,
        written: 1200,
        rejected: 0,
      });
      // On a terminal, `status` of the finished import reads as `local`'s summary does.
      const shown = await runOnTerminal(['status', executionArn], { env: rehearsal });
      expect(shown.code, shown.screen).toBe(0);
      expect(screenLines(shown.screen).at(-1)).toMatch(
        /^SUCCEEDED: 1200 rows, 1200 written, 0 skipped, 0 rejected, 1 chunks into ngrams \(put\) in /,
      );
      const items: Array<Record<string, AttributeValue>> = [];
      for await (const page of paginateScan({ client: table }, { TableName: 'ngrams', ConsistentRead: true }))
        items.push(...(page.Items ?? []));
      table.destroy();
      expect(items.sort(byKey)).toEqual(sampleItems());
    },
    DEPLOY_MS,
  );

  it(
    'fails when the engine refuses a resource, naming it and the reason in one line',
    async () => {
      const refused = await cli(['local', 'deploy', '--app', `node ${REFUSED_APP}`, '--stack', 'Refused'], env);
      expect(refused.code).toBe(1);
      const failure = refused.stderr.split('\n').filter((line) => line.startsWith('local deploy failed:'));
      expect(failure).toEqual([
        'local deploy failed: LocalDeployError: the engine refused resource Queue (AWS::SQS::Queue): The name of a ' +
          'FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix ' +
          'and be 1 to 80 in length.',
      ]);
      expect(refused.stdout).toBe('');
    },
    DEPLOY_MS,
  );
});
