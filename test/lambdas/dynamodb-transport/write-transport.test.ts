import {
  BatchGetItemCommand,
  DeleteTableCommand,
  DynamoDBClient,
  type AttributeValue,
  type BatchWriteItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DynamoDbWriteTransport } from '../../../lambdas/dynamodb-transport/write-transport.js';
import { userAgent } from '../../../lambdas/dynamodb-transport/user-agent.js';
import {
  CLOCK_SKEW_THRESHOLD_MS,
  correctClockSkew,
  updatedClockOffset,
} from '../../../lambdas/dynamodb-transport/clock-skew.js';
import { BatchWriter } from '../../../lambdas/write/batch-writer.js';
import {
  clockSkewRejection,
  eaiAgain,
  outsideSigV4Window,
  signatureSkewReply,
} from '../../e2e/faults/transient-errors.js';
import { createDynamoDbClient } from '../../../lambdas/wiring/sdk-clients.js';
import { isRetryable } from '../../../lambdas/retry/batch-retry.js';
import { ensureTable } from '../../../cli/local-run/local-stack.js';
import { startStandIn } from '../../e2e/admission/stand-in.js';

/** The handlers' clients against the local engine (endpoint from the env the test setup sets). */
const dynamodb = createDynamoDbClient();
const writeTransport = new DynamoDbWriteTransport(dynamodb, 5_000);
const table = `write-transport-${process.pid}-${Date.now()}`;
afterAll(async () => {
  await dynamodb.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
  writeTransport.destroy();
  dynamodb.destroy();
});

/** One item of every attribute type, binary as raw bytes (not valid UTF-8), numbers at full precision. */
const everyType: Record<string, AttributeValue> = {
  pk: { S: 'every-type' },
  s: { S: 'quote " backslash \\ newline \n tab \t é 𝄞' },
  n: { N: '12345678901234567890123456789012345678' },
  b: { B: new Uint8Array([0, 255, 128, 10, 13]) },
  buf: { B: Buffer.from('binary buffer') },
  bool: { BOOL: false },
  nul: { NULL: true },
  ss: { SS: ['a', 'b'] },
  ns: { NS: ['1', '-2.5'] },
  bs: { BS: [new Uint8Array([1, 2]), new Uint8Array([3])] },
  l: { L: [{ S: 'x' }, { N: '1' }, { B: new Uint8Array([9]) }, { M: { deep: { BOOL: true } } }] },
  m: { M: { inner: { S: 'y' }, bytes: { B: new Uint8Array([7, 7]) } } },
};

const put = (item: Record<string, AttributeValue>): BatchWriteItemCommandInput => ({
  RequestItems: { [table]: [{ PutRequest: { Item: item } }] },
});

describe('DynamoDbWriteTransport', () => {
  it('writes items of every attribute type that read back equal through the SDK', async () => {
    await ensureTable(dynamodb, table, { name: 'pk', type: 'S' });
    const items = [everyType, ...Array.from({ length: 24 }, (_, i) => ({ pk: { S: `k${i}` }, v: { N: String(i) } }))];
    const output = await writeTransport.batchWriteItem({
      RequestItems: { [table]: items.map((Item) => ({ PutRequest: { Item } })) },
    });
    expect(output.UnprocessedItems).toEqual({});
    expect(output.$metadata.httpStatusCode).toBe(200);

    const read = await dynamodb.send(
      new BatchGetItemCommand({ RequestItems: { [table]: { Keys: items.map((item) => ({ pk: item.pk })) } } }),
    );
    const byKey = new Map((read.Responses?.[table] ?? []).map((item) => [item.pk.S, item]));
    expect(byKey.size).toBe(25);
    for (const item of items) {
      // The SDK reads binary back as Uint8Array: compare bytes, sets in any order.
      expect(normalize(byKey.get(item.pk.S))).toEqual(normalize(item));
    }
  });

  it('writes a binary value nested in a list in a map when no other value of the batch is binary', async () => {
    const item = {
      pk: { S: 'nested-binary' },
      m: { M: { l: { L: [{ S: 'x' }, { B: new Uint8Array([0, 1, 254]) }] } } },
    };
    await writeTransport.batchWriteItem(put(item));
    const read = await dynamodb.send(
      new BatchGetItemCommand({ RequestItems: { [table]: { Keys: [{ pk: item.pk }] } } }),
    );
    expect(normalize(read.Responses?.[table]?.[0])).toEqual(normalize(item));
  });

  it('fails when the table does not exist, with the name and status the SDK gives, not retryable', async () => {
    const missing = await writeTransport
      .batchWriteItem({ RequestItems: { [`${table}-missing`]: [{ PutRequest: { Item: { pk: { S: 'a' } } } }] } })
      .catch((e: Error) => e);
    expect(missing).toMatchObject({
      name: 'ResourceNotFoundException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    expect(isRetryable(missing)).toBe(false);
  });

  it("fails when an item is invalid, naming DynamoDB's ValidationException and its message", async () => {
    const error = await writeTransport
      .batchWriteItem(put({ pk: { S: 'bad' }, n: { N: 'not a number' } }))
      .catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
    expect((error as Error).message).toMatch(/number/i);
    expect(isRetryable(error)).toBe(false);
  });

  it('sends a SigV4-signed JSON 1.0 POST with the session token', async () => {
    const server = await startStandIn({ 'DynamoDB_20120810.BatchWriteItem': () => ({ UnprocessedItems: {} }) });
    const client = createDynamoDbClient({
      dynamodbEndpoint: server.endpoint,
      region: 'eu-west-3',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session-token' },
    } as never);
    const lean = new DynamoDbWriteTransport(client, 5_000);
    try {
      const input = put({ pk: { S: 'a' }, b: { B: new Uint8Array([1, 2, 3]) } });
      await lean.batchWriteItem(input);
      const [{ headers, body }] = server.requests;
      expect(body).toEqual({
        RequestItems: { [table]: [{ PutRequest: { Item: { pk: { S: 'a' }, b: { B: 'AQID' } } } }] },
      });
      expect(headers).toMatchObject({
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.BatchWriteItem',
        'x-amz-security-token': 'session-token',
        'content-length': String(Buffer.byteLength(JSON.stringify(body))), // the body as sent: JSON.stringify's
        'user-agent': userAgent(),
      });
      expect(headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-3\/dynamodb\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=[0-9a-f]{64}$/,
      );
    } finally {
      lean.destroy();
      client.destroy();
      await server.close();
    }
  });

  it("passes each call through its middleware stack under the SDK's client and command names", async () => {
    const seen: string[] = [];
    writeTransport.middlewareStack.add(
      ((next: (args: unknown) => Promise<unknown>, context: { clientName: string; commandName: string }) =>
        (args: unknown) => {
          seen.push(`${context.clientName}.${context.commandName}`);
          return next(args);
        }) as never,
      { step: 'initialize', name: 'watch' } as never,
    );
    try {
      await writeTransport.batchWriteItem(put({ pk: { S: 'watched' } }));
      expect(seen).toEqual(['DynamoDBClient.BatchWriteItemCommand']);
    } finally {
      writeTransport.middlewareStack.remove('watch');
    }
  });
});

describe('DynamoDbWriteTransport: User-Agent', () => {
  it("names the project and its version from package.json, in the SDK's format, on every request", async () => {
    const server = await startStandIn({ 'DynamoDB_20120810.BatchWriteItem': () => ({ UnprocessedItems: {} }) });
    const { client, lean } = standInClients(server.endpoint);
    try {
      await lean.batchWriteItem(put({ pk: { S: 'a' } }));
      await lean.batchWriteItem(put({ pk: { S: 'b' } }));
      const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        name: string;
        version: string;
      };
      // As @aws-sdk/core's user agent middleware writes its sections: name/version, lang/js, md/nodejs#version.
      const expected = `${pkg.name}/${pkg.version} lang/js md/nodejs#${process.versions.node}`;
      expect(server.requests.map((r) => r.headers['user-agent'])).toEqual([expected, expected]);
      expect(expected).toMatch(/^s3-ddb-import\/\d+\.\d+\.\d+ lang\/js md\/nodejs#\d+\.\d+\.\d+$/);
    } finally {
      lean.destroy();
      client.destroy();
      await server.close();
    }
  });

  it.each([
    // The Lambda runtime names itself in AWS_EXECUTION_ENV; the SDK adds it as an exec-env section.
    [
      'in Lambda',
      'AWS_Lambda_nodejs22.x',
      's3-ddb-import/0.1.0 lang/js md/nodejs#22.11.0 exec-env/AWS_Lambda_nodejs22.x',
    ],
    ['outside Lambda', undefined, 's3-ddb-import/0.1.0 lang/js md/nodejs#22.11.0'],
  ])('is built from the app, the runtime and the environment %s', (_, env, expected) => {
    expect(userAgent({ name: 's3-ddb-import', version: '0.1.0' }, '22.11.0', env)).toBe(expected);
  });

  it("escapes what the SDK escapes: a space or a slash in a name becomes '-'", () => {
    expect(userAgent({ name: 'my app/x', version: '1.0 beta' }, '22.11.0', undefined)).toBe(
      'my-app-x/1.0-beta lang/js md/nodejs#22.11.0',
    );
  });
});

describe('DynamoDbWriteTransport: endpoint and credential resolution', () => {
  it('resolves again on the next request after a failed resolution, instead of keeping the failure', async () => {
    const server = await startStandIn({ 'DynamoDB_20120810.BatchWriteItem': () => ({ UnprocessedItems: {} }) });
    let regionCalls = 0;
    const client = new DynamoDBClient({
      endpoint: server.endpoint,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      // The region's provider fails once (say, the instance metadata was not up yet), then answers.
      region: async () => {
        if (++regionCalls === 1) throw new Error('Region is missing');
        return 'us-east-1';
      },
    });
    const lean = new DynamoDbWriteTransport(client, 5_000);
    try {
      await expect(lean.batchWriteItem(put({ pk: { S: 'a' } }))).rejects.toThrow('Region is missing');
      expect(server.requests).toHaveLength(0);
      await lean.batchWriteItem(put({ pk: { S: 'a' } }));
      const callsToResolve = regionCalls;
      await lean.batchWriteItem(put({ pk: { S: 'b' } }));
      expect(server.requests).toHaveLength(2);
      expect(regionCalls).toBe(callsToResolve); // a resolution that succeeded is kept
    } finally {
      lean.destroy();
      client.destroy();
      await server.close();
    }
  });

  // The endpoint rules ask the credentials for an account ID (account-based endpoints), so a credentials
  // provider failing at the first request failed the resolution that used to be kept.
  it('asks the credentials provider again after it failed once, in the resolution too', async () => {
    const server = await startStandIn({ 'DynamoDB_20120810.BatchWriteItem': () => ({ UnprocessedItems: {} }) });
    let credentialCalls = 0;
    const client = new DynamoDBClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: async () => {
        if (++credentialCalls === 1) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
      },
    });
    const lean = new DynamoDbWriteTransport(client, 5_000);
    try {
      const failed = await lean.batchWriteItem(put({ pk: { S: 'a' } })).catch((e: Error) => e);
      expect(failed).toMatchObject({ code: 'ECONNREFUSED' });
      expect(isRetryable(failed)).toBe(true); // the writer retries it, and the retry asks again
      await lean.batchWriteItem(put({ pk: { S: 'a' } }));
      expect(server.requests).toHaveLength(1);
    } finally {
      lean.destroy();
      client.destroy();
      await server.close();
    }
  });
});

const MINUTE = 60_000;
/** A whole second, so that a `Date` header (one-second resolution) says it exactly. */
const NOW = Date.parse('2026-11-24T22:00:00Z');
const httpDate = (ms: number) => new Date(ms).toUTCString();

describe('clock offset: the arithmetic of the SDK (getUpdatedSystemClockOffset)', () => {
  it.each([
    // Date 10 min ahead of the local clock at receipt: the offset is +600,000 ms.
    ['a server 10 minutes ahead', { date: httpDate(NOW + 10 * MINUTE) }, 0, NOW - 200, 600_000],
    // The offset replaces the old one, it is not added to it: server - local = -600,000.
    [
      'a server 10 minutes behind, replacing an older offset',
      { date: httpDate(NOW - 10 * MINUTE) },
      5000,
      NOW,
      -600_000,
    ],
    // A cached reply's Date is as old as its Age: it says nothing about the clock now.
    ['a reply through a cache (Age)', { date: httpDate(NOW + 10 * MINUTE), age: '30' }, 1234, NOW, 1234],
    ['no Date header', {}, 1234, NOW, 1234],
    ['a Date that does not parse', { date: 'yesterday' }, 1234, NOW, 1234],
    // Sent 16 min before the reply came: over the SDK's 15 min, too long to date the reply.
    ['an exchange that took 16 minutes', { date: httpDate(NOW + 10 * MINUTE) }, 1234, NOW - 16 * MINUTE, 1234],
  ])('%s', (_, headers, current, sentAtMs, expected) => {
    expect(updatedClockOffset(headers, current, sentAtMs, NOW)).toBe(expected);
  });

  it.each([
    // 10 min off, and the request was signed without that: corrected, so the classifier retries it.
    ['a skew of 10 minutes the request was not signed with', 10 * MINUTE, 0, true],
    // Under the SDK's 4-minute threshold: a jittery Date, not a skew.
    ['an offset under 4 minutes', CLOCK_SKEW_THRESHOLD_MS - 1000, 0, undefined],
    // Already signed with that offset: nothing was corrected, so another try would be refused the same.
    ['the offset the request was already signed with', 10 * MINUTE, 10 * MINUTE, undefined],
  ])('marks a rejection clockSkewCorrected only for %s', (_, serverAheadMs, signedWith, corrected) => {
    const clock = { systemClockOffset: signedWith };
    const error = clockSkewRejection(NOW + signedWith, NOW + serverAheadMs);
    correctClockSkew(error, clock, signedWith, NOW - 200, NOW);
    expect(error.$metadata.clockSkewCorrected).toBe(corrected);
    expect(clock.systemClockOffset).toBe(serverAheadMs);
  });

  it('leaves the offset alone after a failure with no reply (a network error)', () => {
    const clock = { systemClockOffset: 1234 };
    correctClockSkew(eaiAgain(), clock, 0, Date.now());
    expect(clock.systemClockOffset).toBe(1234);
  });
});

describe('clock skew against a server that checks SigV4 dates', () => {
  it.each([
    // Our clock 10 min slow: "Signature expired" (transient as such), then signed with the server's time.
    ['ahead of ours (Signature expired)', 10 * MINUTE],
    // Our clock 10 min fast: "Signature not yet current", retried only because the clock was corrected.
    ['behind ours (Signature not yet current)', -10 * MINUTE],
  ])('a server whose clock is 10 minutes %s: the rejected write is retried, signed with its time', async (_, skew) => {
    const serverNow = () => Date.now() + skew;
    const signedAt = (headers: Record<string, unknown>) =>
      Date.parse(
        String(headers['x-amz-date']).replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
      );
    const server = await startStandIn({
      // SigV4's check: the request's X-Amz-Date within 5 minutes of the server's clock, else refused.
      'DynamoDB_20120810.BatchWriteItem': () => {
        const at = signedAt(server.requests.at(-1)!.headers);
        return outsideSigV4Window(at, serverNow())
          ? { status: 400, headers: { date: httpDate(serverNow()) }, json: signatureSkewReply(at, serverNow()) }
          : { UnprocessedItems: {} };
      },
    });
    const { client, lean } = standInClients(server.endpoint);
    try {
      const writer = new BatchWriter({
        table: 't',
        send: (input) => lean.batchWriteItem(input),
        retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      });
      await writer.add({ pk: { S: 'a' } }, 'a');
      await writer.flush();
      expect(writer.written).toBe(1);
      expect(writer.throttledRetries).toBe(1); // one refusal, one retry
      const [refused, accepted] = server.requests.map((r) => signedAt(r.headers));
      expect(outsideSigV4Window(refused, accepted - skew)).toBe(false); // the first was signed by our clock
      expect(outsideSigV4Window(accepted, serverNow())).toBe(false); // the retry by the server's
      // The DynamoDB client's own offset, which its other calls sign with too (within the Date's second).
      expect(Math.abs(client.config.systemClockOffset - skew)).toBeLessThan(60_000);
    } finally {
      lean.destroy();
      client.destroy();
      await server.close();
    }
  });
});

/** A DynamoDB client and a DynamoDbWriteTransport on it, pointed at a stand-in server. */
function standInClients(endpoint: string) {
  const client = createDynamoDbClient({
    dynamodbEndpoint: endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
  });
  return { client, lean: new DynamoDbWriteTransport(client, 5_000) };
}

const SETS = new Set(['SS', 'NS', 'BS']);

/** An item with binary values as byte arrays and sets (not lists) sorted, so written and read items compare. */
function normalize(value: unknown): unknown {
  if (value instanceof Uint8Array) return [...value];
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const normalized = normalize(v);
        return [k, SETS.has(k) ? (normalized as unknown[]).map((x) => JSON.stringify(x)).sort() : normalized];
      }),
    );
  return value;
}
