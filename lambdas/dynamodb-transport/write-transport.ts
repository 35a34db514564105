import {
  type BatchExecuteStatementCommandInput,
  type BatchExecuteStatementCommandOutput,
  type BatchGetItemCommandInput,
  type BatchGetItemCommandOutput,
  BatchWriteItemCommand,
  type BatchWriteItemCommandInput,
  type BatchWriteItemCommandOutput,
  type DynamoDBClient,
  type PutItemCommandInput,
  type PutItemCommandOutput,
  type UpdateItemCommandInput,
  type UpdateItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { constructStack } from '@smithy/core/client';
import { getEndpointFromInstructions } from '@smithy/core/endpoints';
import type { AwsCredentialIdentityProvider, MiddlewareStack } from '@smithy/types';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { replyError, firstHeader, timeoutError } from './reply-errors.js';
import { RequestSigner } from './request-signer.js';
import { binaryAsBase64, hasBinary } from './binary-values.js';
import { correctClockSkew, skewCorrectedDate } from './clock-skew.js';
import { userAgent } from './user-agent.js';

/** The calls this client makes: the import's writes, one per write mode's request, and sync's reads before them. */
export type WriteOperation = 'BatchWriteItem' | 'PutItem' | 'UpdateItem' | 'BatchExecuteStatement' | 'BatchGetItem';
type Input =
  | BatchExecuteStatementCommandInput
  | BatchWriteItemCommandInput
  | PutItemCommandInput
  | UpdateItemCommandInput
  | BatchGetItemCommandInput;
type Output =
  | BatchExecuteStatementCommandOutput
  | BatchWriteItemCommandOutput
  | PutItemCommandOutput
  | UpdateItemCommandOutput
  | BatchGetItemCommandOutput;

/**
 * Sockets per client: 16 batch requests in flight per import (BatchWriteItem, or BatchExecuteStatement for insert and
 * update), plus single-item requests for the items that cannot be statements (write/statement-writer.ts), with room
 * to spare.
 */
const MAX_SOCKETS = 160;
/**
 * What the SDK's own middleware would call this client and each command (IAM call recording and faults match on
 * it). The stack's handler context is per operation, so the names are made once.
 */
const CONTEXTS: Record<WriteOperation, { clientName: string; commandName: string }> = {
  BatchWriteItem: { clientName: 'DynamoDBClient', commandName: 'BatchWriteItemCommand' },
  PutItem: { clientName: 'DynamoDBClient', commandName: 'PutItemCommand' },
  UpdateItem: { clientName: 'DynamoDBClient', commandName: 'UpdateItemCommand' },
  BatchExecuteStatement: { clientName: 'DynamoDBClient', commandName: 'BatchExecuteStatementCommand' },
  BatchGetItem: { clientName: 'DynamoDBClient', commandName: 'BatchGetItemCommand' },
};

/** Where the requests go and how they are signed, resolved once by the SDK client's own configuration chain. */
interface Target {
  readonly url: URL;
  /** The URL as http.request options, converted once: given a URL, Node converts it on every request. */
  readonly where: RequestOptions;
  readonly signer: RequestSigner;
  readonly credentials: AwsCredentialIdentityProvider;
}

/**
 * The DynamoDB write transport: the four calls the write modes make (BatchWriteItem for `put` and `delete`;
 * BatchExecuteStatement of PartiQL INSERTs and UPDATEs for `insert` and `update`, and PutItem and UpdateItem for
 * their items that cannot be statements: write/write-mode.ts WriteCalls), each as one signed HTTP POST, without the
 * SDK client's per-request machinery. Through
 * `DynamoDBClient.send`, each request re-resolves ~30 middleware, walks a schema to serialize and
 * deserialize, re-resolves its endpoint and rebuilds the user agent: about 2.4 CPU-s per 100k items on
 * this path against ~1 for the POST itself, which on a 2-core laptop is CPU that the local engine does not
 * get (README, Performance). The wire format is DynamoDB's JSON 1.0 protocol, whose body is the input as
 * JSON (binary values base64), signed with SigV4 (request-signer.ts); region, endpoint and the
 * credentials provider come from the DynamoDB client's configuration, resolved once.
 *
 * It does not retry: the writers' one retry loop is the one retry layer for throttles, unprocessed items and
 * transient errors (retry/retry-loop.ts), with one bounded ladder and the adaptive limit. Left to the
 * SDK's retry, each of our attempts would hide up to 3 of its own (500 ms-based waits for a throttle),
 * multiplying the waits and hiding the push-back from the limit. Errors carry the names and `$metadata`
 * the SDK gives them (reply-errors.ts). Binary values of UnprocessedItems stay base64 text, which is
 * sent back as is.
 *
 * As the SDK client does, it signs with the clock corrected by the server's (the DynamoDB client's
 * `systemClockOffset`, corrected from a rejected request's reply: clock-skew.ts), names itself in a
 * User-Agent, and resolves its target again after a failed resolution instead of keeping the failure.
 *
 * `middlewareStack` is the place to observe or fault these calls (tests, IAM call recording), with the
 * client and command names the SDK's middleware sees.
 */
export class DynamoDbWriteTransport {
  readonly middlewareStack: MiddlewareStack<Input, Output> = constructStack<Input, Output>();
  /** The target once resolved, or being resolved; a failed resolution is dropped, so the next request tries again. */
  private resolving: Promise<Target> | undefined;
  /** This project's User-Agent, in the SDK's format (user-agent.ts). */
  private readonly userAgent = userAgent();
  private readonly agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
  };

  /**
   * @param dynamodb whose region, endpoint and credentials this client uses
   * @param requestTimeoutMs how long one request may take, socket wait included, before it fails with TimeoutError
   */
  constructor(
    private readonly dynamodb: DynamoDBClient,
    private readonly requestTimeoutMs: number,
  ) {}

  /**
   * Sends one BatchWriteItem: the output, or an error named as DynamoDB named it. A reply that shows the
   * local clock off by minutes corrects the offset that later requests are signed with (clock-skew.ts), also
   * when the reply is a fault a test injected in the middleware stack.
   */
  batchWriteItem(input: BatchWriteItemCommandInput): Promise<BatchWriteItemCommandOutput> {
    return this.call('BatchWriteItem', input) as Promise<BatchWriteItemCommandOutput>;
  }

  /** One PutItem (insert's conditional write), on the same path as `batchWriteItem`. */
  putItem(input: PutItemCommandInput): Promise<PutItemCommandOutput> {
    return this.call('PutItem', input) as Promise<PutItemCommandOutput>;
  }

  /** One UpdateItem (update's merge), on the same path as `batchWriteItem`. */
  updateItem(input: UpdateItemCommandInput): Promise<UpdateItemCommandOutput> {
    return this.call('UpdateItem', input) as Promise<UpdateItemCommandOutput>;
  }

  /** One BatchExecuteStatement (PartiQL statements, 25 at most), on the same path as `batchWriteItem`. */
  executeStatements(input: BatchExecuteStatementCommandInput): Promise<BatchExecuteStatementCommandOutput> {
    return this.call('BatchExecuteStatement', input) as Promise<BatchExecuteStatementCommandOutput>;
  }

  /**
   * One BatchGetItem (sync's read of the items of up to 100 keys before it writes), on the same path as
   * `batchWriteItem`. Binary values of the reply's items stay base64 text, as the JSON protocol carries them
   * (sync-compare/attribute-equality.ts compares them by their bytes).
   */
  batchGetItem(input: BatchGetItemCommandInput): Promise<BatchGetItemCommandOutput> {
    return this.call('BatchGetItem', input) as Promise<BatchGetItemCommandOutput>;
  }

  private async call(operation: WriteOperation, input: Input): Promise<Output> {
    // The stack is empty unless a test added to it: resolving it costs a sort of nothing.
    const handler = this.middlewareStack.resolve(
      (args) => this.post(operation, args.input),
      CONTEXTS[operation] as never,
    );
    const clock = this.dynamodb.config;
    const signedWith = clock.systemClockOffset;
    const sentAtMs = Date.now();
    try {
      const { output } = await handler({ input });
      return output;
    } catch (error) {
      correctClockSkew(error, clock, signedWith, sentAtMs);
      throw error;
    }
  }

  destroy(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  private async post(
    operation: WriteOperation,
    input: Input,
  ): Promise<{ output: Output; response: { statusCode: number } }> {
    const { url, where, signer, credentials } = await this.target();
    // A replacer costs a call per key: ~7% of the import's CPU, for binary values most files do not have.
    const json = hasBinary(input) ? JSON.stringify(input, binaryAsBase64) : JSON.stringify(input);
    const body = Buffer.from(json); // encoded once, for the signature's hash, the length and the socket
    const headers = signer.sign(
      {
        host: url.host,
        path: url.pathname,
        target: `DynamoDB_20120810.${operation}`,
        contentType: 'application/x-amz-json-1.0',
        body,
      },
      await credentials(), // the SDK's provider: cached, refreshed before expiry, asked again after a failure
      skewCorrectedDate(this.dynamodb.config),
    );
    headers['content-length'] = String(body.length);
    headers['user-agent'] = this.userAgent; // not signed: SigV4 leaves user-agent out, as the SDK's signer does
    const response = await this.exchange(where, headers, body);
    const text = response.body.toString('utf8');
    if (response.statusCode !== 200) throw replyError(response.statusCode, response.headers, text);
    const $metadata = { httpStatusCode: 200, requestId: firstHeader(response.headers['x-amzn-requestid']) };
    return { output: { ...(JSON.parse(text) as object), $metadata } as Output, response };
  }

  /** One POST on a keep-alive socket; fails with TimeoutError when the whole exchange outlasts the timeout. */
  private exchange(where: RequestOptions, headers: Record<string, string>, body: Buffer) {
    return new Promise<{ statusCode: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      const send = where.protocol === 'https:' ? httpsRequest : httpRequest;
      const agent = this.agents[where.protocol as keyof typeof this.agents];
      const request = send({ ...where, method: 'POST', headers, agent }, (reply) => {
        const parts: Buffer[] = [];
        reply.on('data', (part: Buffer) => parts.push(part));
        reply.on('error', reject);
        reply.on('end', () => {
          clearTimeout(timer);
          resolve({ statusCode: reply.statusCode ?? 0, headers: reply.headers, body: Buffer.concat(parts) });
        });
      });
      const timer = setTimeout(() => request.destroy(timeoutError(this.requestTimeoutMs)), this.requestTimeoutMs);
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.end(body);
    });
  }

  /** The resolved target; a resolution that failed is forgotten, so the next request resolves again. */
  private target(): Promise<Target> {
    if (!this.resolving) {
      const resolving = this.resolveTarget();
      this.resolving = resolving;
      resolving.catch(() => {
        if (this.resolving === resolving) this.resolving = undefined;
      });
    }
    return this.resolving;
  }

  /**
   * Region, endpoint and credentials of the DynamoDB client. The endpoint comes from the SDK's rules for
   * BatchWriteItem; DynamoDB's rules take no per-command parameter of PutItem, UpdateItem, BatchExecuteStatement or
   * BatchGetItem that would change it (only ResourceArn-based account endpoints, which these calls do not use), so one
   * target serves them all.
   */
  private async resolveTarget(): Promise<Target> {
    const config = this.dynamodb.config;
    const endpoint = await getEndpointFromInstructions({ RequestItems: {} }, BatchWriteItemCommand, config as never);
    const scheme = (endpoint.properties?.authSchemes as { signingRegion?: string }[] | undefined)?.[0];
    const signer = new RequestSigner(scheme?.signingRegion ?? (await config.region()));
    const url = new URL(endpoint.url.href);
    return {
      url,
      where: urlToHttpOptions(url),
      signer,
      credentials: config.credentials as AwsCredentialIdentityProvider,
    };
  }
}
