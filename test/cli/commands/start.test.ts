import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionName, type StartRequest } from '../../../cli/cloud/start/start-request.js';
import { parseStartCommand, runStartCommand } from '../../../cli/commands/start.js';
import { startStandIn, type StandIn } from '../../e2e/admission/stand-in.js';
import { createBucket, createTable, dynamodb, putText, s3 } from '../../e2e/harness.js';
import { ensureTable } from '../../../cli/local-run/local-stack.js';
import { createKmsKey } from '../../e2e/sse/kms-key.js';
import { recordSseHeaders } from '../../e2e/sse/record-sse-headers.js';
import { capture, cloudClients, describeStacksXml } from '../../support/cloud-clients.js';

const CLI = fileURLToPath(new URL('../../../bin/s3-ddb-import.mjs', import.meta.url));
const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:S3DdbImportStateMachine';
const START = 'AWSStepFunctions.StartExecution';
const MiB = 1024 * 1024;

let standIn: StandIn;
let bucket: string;
let dir: string;
beforeAll(async () => {
  standIn = await startStandIn();
  bucket = await createBucket();
  // start describes the table before it uploads or starts: the tables these imports name exist.
  for (const table of ['ngrams', 'words']) await ensureTable(dynamodb, table, { name: 'id', type: 'S' });
  dir = await mkdtemp(join(tmpdir(), 'start-'));
});
afterAll(() => standIn.close());

/** A deployed stack as the stand-in answers for it: its outputs, and StartExecution answering an ARN. */
function deployedStack(watchedPrefixes: string[] = ['imports/ngrams/'], more: Record<string, string> = {}) {
  standIn.requests.length = 0;
  standIn.answers = {
    DescribeStacks: () =>
      describeStacksXml('S3DdbImport', {
        StateMachineArn: MACHINE,
        BucketName: bucket,
        WatchedPrefixes: JSON.stringify(watchedPrefixes),
        ...more,
      }),
    [START]: (body) => ({
      executionArn: `${MACHINE.replace(':stateMachine:', ':execution:')}:${body.name}`,
      startDate: 1_741_944_413,
    }),
  };
}

const startRequests = () =>
  standIn.requests
    .filter((r) => r.target === START)
    .map((r) => r.body as { stateMachineArn: string; name: string; input: string });

/** 11.4 MiB of TSV rows, different on every line: three 5 MiB parts (5 + 5 + 1.4). */
async function bigTsv(): Promise<string> {
  const lines = ['ngram\tyear\tcount\n'];
  for (let j = 0, bytes = 0; bytes < 11.4 * MiB; j++) {
    lines.push(`word${j}\t${1900 + (j % 100)}\t${j * 7}\n`);
    bytes += lines.at(-1)!.length;
  }
  const path = join(dir, 'ngrams.tsv');
  await writeFile(path, lines.join(''));
  return path;
}

describe('s3-ddb-import start <local file>', () => {
  it("uploads the file in parallel parts to the stack's bucket byte for byte, then starts the execution with the request", async () => {
    deployedStack();
    const file = await bigTsv();
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = {
        ...process.env,
        AWS_ENDPOINT_URL_SFN: standIn.endpoint,
        AWS_ENDPOINT_URL_CLOUDFORMATION: standIn.endpoint,
      };
      execFile(
        process.execPath,
        [CLI, 'start', file, '--table', 'ngrams', '--types', 'year=N,count=N', '--part-mib', '5', '--json'],
        { env, timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.code, run.stderr).toBe(0);
    // stderr is not a terminal here: plain progress lines, no escape codes
    expect(run.stderr).toMatch(/^uploading: 100% of \d+ bytes$/m);
    expect(run.stderr).not.toContain('\x1b');

    const [started] = startRequests();
    const input = JSON.parse(started.input) as StartRequest;
    // The upload key: the default upload prefix, the UTC second the command ran, the file's name.
    const stampText = /^s3-ddb-import\/uploads\/(\d{8}-\d{6})\/ngrams\.tsv$/.exec(input.key ?? '')?.[1];
    expect(stampText).toBeDefined();
    expect(input).toEqual({ bucket, key: input.key, table: 'ngrams', types: { year: 'N', count: 'N' } });
    const at = new Date(stampText!.replace(/^(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)$/, '$1-$2-$3T$4:$5:$6Z'));
    expect(started).toEqual({ stateMachineArn: MACHINE, name: executionName(input, at), input: started.input });
    expect(started.name).toMatch(new RegExp(`^ngrams-ngrams-${stampText}-[0-9a-f]{6}$`));
    expect(standIn.requests.map((r) => r.target)).toEqual(['DescribeStacks', START]);
    expect(standIn.requests[0].body).toMatchObject({ Action: 'DescribeStacks', StackName: 'S3DdbImport' });

    // What landed is the file, byte for byte, from a multipart upload of 3 parts (its ETag ends in -3).
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: input.key }));
    expect(head.ETag).toMatch(/-3"$/);
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: input.key }));
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(await readFile(file))).toBe(true);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({
      status: 'RUNNING',
      executionArn: `${MACHINE.replace(':stateMachine:', ':execution:')}:${started.name}`,
      executionName: started.name,
      bucket,
      key: input.key,
    });
  });

  it('fails when the upload would land under a watched prefix, before uploading or starting anything', async () => {
    deployedStack(['uploads/']);
    const file = join(dir, 'small.csv');
    await writeFile(file, 'id,n\na,1\n');
    const { output, err } = capture();
    const command = parseStartCommand([file, '--table', 'ngrams', '--upload-prefix', 'uploads/mine/']);

    await expect(runStartCommand(command, cloudClients(standIn), output)).rejects.toThrow(
      /the upload key uploads\/mine\/\d{8}-\d{6}\/small\.csv is under the watched prefix "uploads\/", whose rule would start an import of its own: give another --upload-prefix/,
    );
    expect(err).toEqual([]);
    expect(startRequests()).toEqual([]);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'uploads/' }));
    expect(listed.KeyCount).toBe(0);
  });
});

describe('s3-ddb-import start <s3 source>', () => {
  it('sends a folder as `prefix`, and fills a --request file with the bucket, the prefix and the flags', async () => {
    deployedStack();
    const requestFile = join(dir, 'req.json');
    await writeFile(
      requestFile,
      JSON.stringify({
        bucket: 'other',
        key: 'ignored.csv',
        table: 'words',
        format: { delimiter: ';' },
        types: { n: 'N' },
        chunkMiB: 8,
      }),
    );
    const { output, out } = capture();
    const command = parseStartCommand([
      `s3://${bucket}/exports/2025/`,
      '--request',
      requestFile,
      '--types',
      'm=BOOL',
      '--max-write-rate',
      '500',
    ]);

    expect(await runStartCommand(command, cloudClients(standIn), output, () => new Date('2025-03-14T09:26:53Z'))).toBe(
      0,
    );
    const [started] = startRequests();
    const expected = {
      bucket,
      prefix: 'exports/2025/',
      table: 'words',
      format: { delimiter: ';' },
      types: { n: 'N', m: 'BOOL' },
      chunkMiB: 8,
      maxWriteRate: 500,
    };
    expect(JSON.parse(started.input)).toEqual(expected);
    expect(started.name).toBe(executionName(JSON.parse(started.input), new Date('2025-03-14T09:26:53Z')));
    expect(started.name).toMatch(/^words-2025-20250314-092653-[0-9a-f]{6}$/);
    expect(out.at(-1)).toBe(`follow it with: s3-ddb-import status ${started.name} --follow`);
  });

  it('fails when the request is invalid, naming every wrong field, before starting anything', async () => {
    deployedStack();
    const command = parseStartCommand([
      `s3://${bucket}/a.csv`,
      '--table',
      'ngrams',
      '--delimiter',
      ';;',
      '--chunk-mib',
      '0.5',
    ]);
    await expect(runStartCommand(command, cloudClients(standIn), capture().output)).rejects.toThrow(
      'invalid request: format.delimiter: must be one character other than a newline, got ";;"',
    );
    expect(startRequests()).toEqual([]);
  });
});

describe("a source outside the stack's bucket", () => {
  it.each([
    ['an object', 's3://other-bucket/imports/a.csv'],
    ['a folder', 's3://other-bucket/imports/'],
  ])('fails for %s with InvalidRequestError naming the stack bucket, before starting anything', async (_, url) => {
    deployedStack();
    const command = parseStartCommand([url, '--table', 'ngrams']);

    const error = await runStartCommand(command, cloudClients(standIn), capture().output).catch((e: Error) => e);
    expect(error).toMatchObject({
      name: 'InvalidRequestError',
      message: `invalid request: bucket: "other-bucket" is not the bucket this deployment reads (${bucket})`,
    });
    expect(standIn.requests.map((r) => r.target)).toEqual(['DescribeStacks']);
  });

  it('is not checked with --state-machine and no --bucket (the CLI does not know the bucket then)', async () => {
    deployedStack();
    const command = parseStartCommand(['s3://other-bucket/a.csv', '--table', 'ngrams', '--state-machine', MACHINE]);

    expect(await runStartCommand(command, cloudClients(standIn), capture().output)).toBe(0);
    expect(JSON.parse(startRequests()[0].input)).toMatchObject({ bucket: 'other-bucket', key: 'a.csv' });
  });
});

describe('execution names', () => {
  it.each([
    // table, then the object's name without its extension, the UTC second, 6 hex of the input
    [
      { bucket: 'b', key: 'imports/googlebooks-1gram.tsv', table: 'ngrams' },
      /^ngrams-googlebooks-1gram-20250314-092653-[0-9a-f]{6}$/,
    ],
    // spaces, dots and other characters Step Functions refuses (or CloudWatch logging dislikes) become '-'
    [
      { bucket: 'b', key: 'my data/Q1 report (final).csv', table: 'sales.eu' },
      /^sales-eu-Q1-report-final-20250314-092653-[0-9a-f]{6}$/,
    ],
    // long names are cut so the whole stays within 80 characters
    [
      { bucket: 'b', key: `${'x'.repeat(200)}.csv`, table: 't'.repeat(200) },
      /^t{24}-x{24}-20250314-092653-[0-9a-f]{6}$/,
    ],
  ])('names %j readably', (request, pattern) => {
    const name = executionName(request, new Date('2025-03-14T09:26:53.123Z'));
    expect(name).toMatch(pattern);
    expect(name.length).toBeLessThanOrEqual(80);
  });

  it('gives the same request in the same second the same name (StartExecution then returns the running one), and another request another', () => {
    const at = new Date('2025-03-14T09:26:53Z');
    const request = { bucket: 'b', key: 'k.csv', table: 't' };
    expect(executionName(request, at)).toBe(executionName({ ...request }, at));
    expect(executionName(request, at)).not.toBe(executionName({ ...request, chunkMiB: 8 }, at));
  });
});

describe('a local folder', () => {
  it('is uploaded file by file under one prefix, which the request names', async () => {
    deployedStack([]);
    const folder = join(dir, 'daily');
    await mkdir(join(folder, 'part2'), { recursive: true });
    await writeFile(join(folder, 'a.csv'), 'id\n1\n');
    await writeFile(join(folder, 'part2', 'b.csv'), 'id\n2\n');
    await writeFile(join(folder, '.DS_Store'), 'junk');
    const command = parseStartCommand([folder, '--table', 'ngrams']);

    expect(
      await runStartCommand(command, cloudClients(standIn), capture().output, () => new Date('2025-03-14T09:26:53Z')),
    ).toBe(0);
    const input = JSON.parse(startRequests()[0].input) as StartRequest;
    expect(input).toEqual({ bucket, prefix: 's3-ddb-import/uploads/20250314-092653/daily/', table: 'ngrams' });
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: input.prefix }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual([`${input.prefix}a.csv`, `${input.prefix}part2/b.csv`]);
  });
});

describe('a stack whose bucket is SSE-KMS (its BucketKmsKeyArn output)', () => {
  let KEY_ARN = ''; // a key that exists in the engine's KMS, as S3 requires on AWS
  beforeAll(async () => {
    KEY_ARN = await createKmsKey('s3-ddb-import start test');
  });

  it('uploads every file, single PUT or multipart, asking for SSE-KMS with that key', async () => {
    deployedStack([], { BucketKmsKeyArn: KEY_ARN });
    const folder = join(dir, 'kms');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'a-small.csv'), 'id\n1\n');
    await writeFile(join(folder, 'b-big.tsv'), await readFile(await bigTsv())); // 11.4 MiB: 3 parts of 5 MiB
    const clients = cloudClients(standIn);
    const recorded = recordSseHeaders(clients.s3);
    const command = parseStartCommand([folder, '--table', 'ngrams', '--part-mib', '5']);

    expect(await runStartCommand(command, clients, capture().output, () => new Date('2025-03-14T09:26:53Z'))).toBe(0);
    const prefix = 's3-ddb-import/uploads/20250314-092653/kms/';
    const sse = {
      'x-amz-server-side-encryption': 'aws:kms',
      'x-amz-server-side-encryption-aws-kms-key-id': KEY_ARN,
      'x-amz-server-side-encryption-bucket-key-enabled': 'true',
    };
    // S3 takes the encryption of a multipart upload from CreateMultipartUpload; its parts and completion carry none.
    expect(recorded.map(({ command, key, sse }) => ({ command, key, sse }))).toEqual([
      { command: 'PutObjectCommand', key: `${prefix}a-small.csv`, sse },
      { command: 'CreateMultipartUploadCommand', key: `${prefix}b-big.tsv`, sse },
      ...[1, 2, 3].map(() => ({ command: 'UploadPartCommand', key: `${prefix}b-big.tsv`, sse: {} })),
      { command: 'CompleteMultipartUploadCommand', key: `${prefix}b-big.tsv`, sse: {} },
    ]);
  });

  it('uploads with no SSE header when the stack names no key', async () => {
    deployedStack([]);
    const file = join(dir, 'plain.csv');
    await writeFile(file, 'id\n1\n');
    const clients = cloudClients(standIn);
    const recorded = recordSseHeaders(clients.s3);

    expect(await runStartCommand(parseStartCommand([file, '--table', 'ngrams']), clients, capture().output)).toBe(0);
    expect(recorded.map(({ command, sse }) => ({ command, sse }))).toEqual([{ command: 'PutObjectCommand', sse: {} }]);
  });
});

describe('s3-ddb-import start --follow', () => {
  it('follows the execution it started to its end and exits as local does', async () => {
    deployedStack();
    let described = 0;
    standIn.answers['AWSStepFunctions.DescribeExecution'] = (body) => {
      described++;
      const name = String(body.executionArn).split(':').pop();
      const output = {
        status: 'SUCCEEDED',
        bucket,
        key: 'k.csv',
        table: 'ngrams',
        rows: 3,
        written: 3,
        rejected: 0,
        skipped: 0,
        deleted: 0,
        added: 0,
        changed: 0,
        unchanged: 0,
        mode: 'put',
        dryRun: false,
        writeUnits: 0,
        chunks: 1,
        rejectsKey: null,
        reportKey: 'r',
      };
      return {
        executionArn: body.executionArn,
        stateMachineArn: MACHINE,
        name,
        status: 'SUCCEEDED',
        startDate: 1_741_944_413,
        stopDate: 1_741_944_415,
        input: '{}',
        output: JSON.stringify(output),
      };
    };
    const { output, out } = capture();
    const command = parseStartCommand([`s3://${bucket}/k.csv`, '--table', 'ngrams', '--follow', '--poll-s', '0.001']);

    expect(await runStartCommand(command, cloudClients(standIn), output, () => new Date('2025-03-14T09:26:53Z'))).toBe(
      0,
    );
    const [started] = startRequests();
    expect(
      standIn.requests.filter((r) => r.target === 'AWSStepFunctions.DescribeExecution').map((r) => r.body),
    ).toEqual([{ executionArn: `${MACHINE.replace(':stateMachine:', ':execution:')}:${started.name}` }]);
    expect(described).toBe(1);
    expect(out).toEqual([
      'SUCCEEDED: 3 rows, 3 written, 0 skipped, 0 rejected, 1 chunks into ngrams (put) in 2.0 s (2 items/s)',
    ]);
  });
});

describe('the safety check before starting (lambdas/table-checks/table-safety-check.ts, with the CLI identity)', () => {
  async function startWith(request: Record<string, unknown>, extra: string[] = []) {
    deployedStack();
    await putText(bucket, 'imports/keys.csv', 'id\na\n');
    const file = join(dir, `req-${Date.now()}.json`);
    await writeFile(file, JSON.stringify(request));
    const command = parseStartCommand([`s3://${bucket}/imports/keys.csv`, '--request', file, ...extra]);
    const shown = capture();
    const outcome = await runStartCommand(command, cloudClients(standIn), shown.output).catch((e: Error) => e);
    return { outcome, err: shown.err };
  }

  it('fails when a delete meets a table without point-in-time recovery (a new table has it off): before StartExecution', async () => {
    const table = await createTable(['id', 'S']);
    const { outcome } = await startWith({ table, mode: 'delete' });
    expect(outcome).toMatchObject({
      name: 'BackupRequiredError',
      message: expect.stringContaining(`table "${table}" has point-in-time recovery off`),
    });
    expect(startRequests()).toEqual([]);
  });

  it('starts a delete with allowWithoutBackup, the warning on stderr first', async () => {
    const table = await createTable(['id', 'S']);
    const { outcome, err } = await startWith({ table, mode: 'delete', allowWithoutBackup: true });
    expect(outcome).toBe(0);
    expect(err[0]).toBe(
      `warning: table "${table}" has point-in-time recovery off, and allowWithoutBackup is set: ` +
        'the items this import deletes cannot be restored',
    );
    expect(startRequests()).toHaveLength(1);
  });

  it('fails when the table does not exist: its own DescribeTable said so, so nothing is started', async () => {
    const { outcome, err } = await startWith({ table: 'no-such-table' });
    expect(outcome).toMatchObject({
      name: 'TableNotFoundError',
      message: 'table "no-such-table" does not exist',
      hint: expect.stringContaining('create the table in this account and region first'),
    });
    expect(err).toEqual([]);
    expect(startRequests()).toEqual([]);
  });
});

describe('StartExecution refused (the API error classes: API_StartExecution.html)', () => {
  it.each([
    [
      'ExecutionAlreadyExists',
      'an execution named mine ran with another input (names last 90 days): give another --name',
    ],
    ['InvalidName', '--name "mine": use only letters, digits, - and _ (at most 80)'],
    [
      'StateMachineDoesNotExist',
      `the state machine ${MACHINE} does not exist: redeploy the stack, or check --stack/--state-machine and AWS_REGION`,
    ],
  ])('fails with %s as a CloudCommandError that names the fix', async (type, fix) => {
    deployedStack();
    standIn.answers[START] = () => ({ status: 400, json: { __type: type, message: 'refused' } });
    const command = parseStartCommand([`s3://${bucket}/k.csv`, '--table', 'ngrams', '--name', 'mine']);
    const error = await runStartCommand(command, cloudClients(standIn), capture().output).catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'CloudCommandError', message: `${type}: ${fix}` });
  });

  it('passes any other error on as the SDK gives it', async () => {
    deployedStack();
    standIn.answers[START] = () => ({ status: 400, json: { __type: 'ExecutionLimitExceeded', message: 'too many' } });
    const command = parseStartCommand([`s3://${bucket}/k.csv`, '--table', 'ngrams', '--name', 'mine']);
    const error = await runStartCommand(command, cloudClients(standIn), capture().output).catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'ExecutionLimitExceeded', message: 'too many' });
  });
});
