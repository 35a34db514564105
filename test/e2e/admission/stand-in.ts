import { LambdaClient } from '@aws-sdk/client-lambda';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LambdaConcurrency } from '../../../lambdas/admission/lambda-concurrency.js';

/**
 * A stand-in for the control APIs that have no local server (Step Functions, Lambda, CloudFormation,
 * CloudWatch), and for DynamoDB replies the local engine never gives (a throttle): it records every request
 * the real clients send over HTTP and answers from `answers`. Tests check the exact requests.
 */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Step Functions' JSON protocol names the operation in X-Amz-Target, e.g. AWSStepFunctions.ListExecutions. */
  readonly target: string | undefined;
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
}

/**
 * What the stand-in answers: a JSON body per operation (its X-Amz-Target, or `METHOD path` for Lambda's REST),
 * or `{ xml }` for the query protocol (CloudFormation), whose operation is the form body's `Action`.
 */
export type Answers = Record<string, (body: Record<string, unknown>) => unknown>;

/** An answer in the query protocol's XML, sent as text/xml (with `status` 400 for an error response). */
export interface XmlAnswer {
  readonly xml: string;
  readonly status?: number;
}

/** A JSON answer with its own status and headers, e.g. an error reply: 400 and `{ __type, message }`. */
export interface JsonAnswer {
  readonly json: unknown;
  readonly status: number;
  readonly headers?: Record<string, string>;
}

export interface StandIn {
  readonly endpoint: string;
  readonly requests: RecordedRequest[];
  answers: Answers;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  // The query protocol (CloudFormation) sends a form: Action=DescribeStacks&Version=...&StackName=...
  if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  return text ? JSON.parse(text) : undefined;
}

export async function startStandIn(answers: Answers = {}): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  const standIn = { requests, answers } as StandIn;
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const action = (body as { Action?: string } | undefined)?.Action;
    const target = (request.headers['x-amz-target'] as string | undefined) ?? action;
    const path = (request.url ?? '').split('?')[0];
    requests.push({ method: request.method ?? '', path, target, body, headers: request.headers });
    const answer = standIn.answers[target ?? `${request.method} ${path}`];
    if (!answer) {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `no answer for ${target ?? path}` }));
      return;
    }
    const answered = answer((body ?? {}) as Record<string, unknown>);
    if (typeof answered === 'object' && answered !== null && 'xml' in answered) {
      response
        .writeHead((answered as XmlAnswer).status ?? 200, { 'content-type': 'text/xml' })
        .end((answered as XmlAnswer).xml);
      return;
    }
    const { json, status, headers } =
      typeof answered === 'object' && answered !== null && 'json' in answered
        ? (answered as JsonAnswer)
        : { json: answered, status: 200, headers: {} };
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', ...headers }).end(JSON.stringify(json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(standIn, {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The deployed control plane's code, its SDK clients pointed at the stand-in. */
export function standInConcurrencySource(
  standIn: StandIn,
  importFunctionName: string | null,
  now?: () => number,
): LambdaConcurrency {
  const options = {
    endpoint: standIn.endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'stand-in', secretAccessKey: 'stand-in' },
  };
  return new LambdaConcurrency(new LambdaClient(options), importFunctionName, now);
}
