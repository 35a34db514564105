import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContainerLogger, invocationLogger } from '../../../lambdas/observability/logger.js';
import { outputLines } from './output-lines.js';

/** The part of Lambda's context Powertools reads. */
const lambdaContext = (requestId: string) => ({
  awsRequestId: requestId,
  functionName: 'S3DdbImport-ImportFunction',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:111122223333:function:S3DdbImport-ImportFunction',
  memoryLimitInMB: '1769',
  getRemainingTimeInMillis: () => 900_000,
});

describe('the handlers’ logger (Powertools Logger)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('writes one JSON line with the level, the message, the service, the keys of the work and the fields', () => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
    const log = invocationLogger(createContainerLogger(), {}, { bucket: 'b', key: 'k.tsv', chunk: 3 });
    const lines = outputLines(() => log.info('chunk progress', { rows: 1200 }));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'INFO',
      message: 'chunk progress',
      service: 's3-ddb-import',
      bucket: 'b',
      key: 'k.tsv',
      chunk: 3,
      rows: 1200,
    });
  });

  it("carries Lambda's request id, and cold_start true on the container's first invocation only", () => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
    // Lambda sets it in an on-demand container; Powertools reports a cold start only there.
    vi.stubEnv('AWS_LAMBDA_INITIALIZATION_TYPE', 'on-demand');
    const container = createContainerLogger();
    const lines = outputLines(() => {
      invocationLogger(container, lambdaContext('req-1'), { chunk: 0 }).info('first');
      invocationLogger(container, lambdaContext('req-2'), { chunk: 1 }).info('second');
    });
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([
      { message: 'first', function_request_id: 'req-1', cold_start: true, chunk: 0 },
      { message: 'second', function_request_id: 'req-2', cold_start: false, chunk: 1 },
    ]);
  });

  it('keeps the keys of two invocations apart (the local runner imports chunks at once in one container)', () => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
    const container = createContainerLogger();
    const a = invocationLogger(container, {}, { chunk: 0 });
    const b = invocationLogger(container, {}, { chunk: 1 });
    const lines = outputLines(() => {
      a.info('x');
      b.info('y');
    });
    expect(lines.map((l) => JSON.parse(l).chunk)).toEqual([0, 1]);
  });

  it.each([
    // What the CLI and the tests set: info lines are for CloudWatch only.
    [{ POWERTOOLS_LOG_LEVEL: 'WARN' }],
    // The older variable, read when POWERTOOLS_LOG_LEVEL is not set.
    [{ POWERTOOLS_LOG_LEVEL: undefined, LOG_LEVEL: 'WARN' }],
    // A function's advanced logging controls set AWS_LAMBDA_LOG_LEVEL, which wins over the others.
    [{ POWERTOOLS_LOG_LEVEL: 'DEBUG', AWS_LAMBDA_LOG_LEVEL: 'WARN' }],
  ])('drops info lines and keeps warnings with %j', (variables: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
    const log = invocationLogger(createContainerLogger(), {}, {});
    const lines = outputLines(() => {
      log.info('hidden');
      log.warn('shown');
    });
    expect(lines.map((l) => JSON.parse(l).message)).toEqual(['shown']);
  });
});
