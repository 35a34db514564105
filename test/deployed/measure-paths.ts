// Issue 29 item 5, one local path or two: time to the first write and total time of the same files through
// `local` (the workflow in-process, against a running ministack) and through the stack deployed into ministack
// (`start --follow`). Run from the repository root: `npx tsx test/deployed/measure-paths.ts local|deployed`.
// Both measure from the CLI's start against an engine that is already up (and, deployed, a stack already deployed).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { cacheDir, startMinistack } from '../../cli/services/index.js';
import { generateNgrams } from '../fixtures/ngrams.js';
import {
  deployToEngine,
  engineEnv,
  iamEngineTarget,
  ROOT_CREDENTIALS,
  startIamEngine,
} from '../../cli/local-deploy/index.js';

const CLI = 'bin/s3-ddb-import.mjs';
const TYPES = ['--types', 'year=N,match_count=N,volume_count=N'];
/** How often the table is asked whether it holds an item yet. */
const LOOK_MS = 25;

/** The sample and a 200k-row TSV, each with the table it goes to (the deployed stack may write only its own). */
function files(tables: readonly [string, string]): Array<[string, string]> {
  const big = join(mkdtempSync(join(tmpdir(), 's3ddb-measure-')), 'ngrams-200k.tsv');
  writeFileSync(big, generateNgrams(200_000).text);
  return [
    ['sample/googlebooks-1gram-sample.tsv', tables[0]],
    [big, tables[1]],
  ];
}

function dynamodb(endpoint: string, caFile?: string): DynamoDBClient {
  const tls = caFile ? new NodeHttpHandler({ httpsAgent: new Agent({ ca: readFileSync(caFile) }) }) : undefined;
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: ROOT_CREDENTIALS, requestHandler: tls });
}

async function freshTable(client: DynamoDBClient, TableName: string): Promise<void> {
  await client.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
  const keys = [
    ['ngram', 'S', 'HASH'],
    ['year', 'N', 'RANGE'],
  ] as const;
  await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keys.map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
      KeySchema: keys.map(([AttributeName, , KeyType]) => ({ AttributeName, KeyType })),
    }),
  );
}

/** Runs the CLI; the first write is when a Scan first finds an item, the total when the CLI exits. */
async function timed(args: string[], env: Record<string, string>, client: DynamoDBClient, table: string) {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
  let exited = false;
  const code = new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1))).finally(
    () => (exited = true),
  );
  let firstWriteMs = -1;
  while (!exited && firstWriteMs < 0) {
    const answer = await client.send(new ScanCommand({ TableName: table, Limit: 1 })).catch(() => undefined);
    if ((answer?.Count ?? 0) > 0) firstWriteMs = performance.now() - started;
    await sleep(LOOK_MS);
  }
  return { code: await code, firstWriteS: firstWriteMs / 1000, totalS: (performance.now() - started) / 1000 };
}

async function measureLocal(): Promise<void> {
  const engine = await startMinistack({
    cache: cacheDir(process.env),
    log: console.error,
    credentials: ROOT_CREDENTIALS,
  });
  const env = {
    AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint,
    AWS_ENDPOINT_URL_S3: engine.endpoint,
    AWS_ACCESS_KEY_ID: ROOT_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: ROOT_CREDENTIALS.secretAccessKey,
    AWS_REGION: 'us-east-1',
  };
  const client = dynamodb(engine.endpoint);
  for (const [file, table] of files(['measure-sample', 'measure-200k'])) {
    await freshTable(client, table);
    console.log('local', file, await timed(['local', file, '--table', table, ...TYPES, '--json'], env, client, table));
  }
  await engine.process.stop();
}

async function measureDeployed(): Promise<void> {
  const engine = await startIamEngine(console.error);
  const target = iamEngineTarget(engine);
  const env = engineEnv(target);
  const assemblyDir = join(mkdtempSync(join(tmpdir(), 's3ddb-measure-')), 'assembly');
  // As `local deploy` does: the stack's own timeouts, no edit but the engine's workarounds.
  const cwd = fileURLToPath(new URL('.', import.meta.url));
  await deployToEngine({ target, cwd, stack: 'S3DdbImport', assemblyDir, log: console.error });
  const client = dynamodb(engine.endpoint, engine.caFile);
  // Two of the tables test/deployed/cdk.json grants the stack.
  for (const [file, table] of files(['bad-rows', 'watched'])) {
    await freshTable(client, table);
    const args = ['start', file, '--table', table, ...TYPES, '--follow', '--json'];
    console.log('deployed', file, await timed(args, env, client, table));
  }
  await engine.process.stop();
}

await (process.argv[2] === 'deployed' ? measureDeployed() : measureLocal());
