import {
  ProvisionedThroughputExceededException,
  type BatchWriteItemCommandInput,
  type BatchWriteItemCommandOutput,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { seededRandom } from '../test/fixtures/random.js';

type Send = (input: BatchWriteItemCommandInput) => Promise<BatchWriteItemCommandOutput>;
/** Decides one BatchWriteItem's fate: how many of its `n` items DynamoDB takes (0 = a throttle). */
export type Admit = (n: number) => number;

/** What DynamoDB answers a throttled request with, as the SDK's deserializer builds it. */
function throttle(): ProvisionedThroughputExceededException {
  const error = new ProvisionedThroughputExceededException({
    message: 'throughput exceeded (bench fault)',
    $metadata: { httpStatusCode: 400 },
  });
  return Object.assign(error, { $retryable: { throttling: true } });
}

/** Sends the first `taken` items for real and returns the rest as UnprocessedItems, as DynamoDB does under load. */
async function admitted(
  input: BatchWriteItemCommandInput,
  send: Send,
  taken: number,
): Promise<BatchWriteItemCommandOutput> {
  const [table, requests] = Object.entries(input.RequestItems ?? {})[0] as [string, WriteRequest[]];
  if (taken <= 0) throw throttle();
  if (taken >= requests.length) return send(input);
  const output = await send({ ...input, RequestItems: { [table]: requests.slice(0, taken) } });
  return {
    ...output,
    UnprocessedItems: { [table]: [...(output.UnprocessedItems?.[table] ?? []), ...requests.slice(taken)] },
  };
}

/** A client whose BatchWriteItem calls pass through a middleware stack: the SDK's, or the import's DynamoDbWriteTransport. */
interface WithMiddleware {
  readonly middlewareStack: { add(middleware: never, options: never): void };
}

/**
 * Puts `admit` where DynamoDB's reply would be: middleware in finalizeRequest at low priority, inside the
 * SDK client's retry (which retries a throttle there, as it would a real one); the DynamoDbWriteTransport has no
 * retry, so there each request meets it once.
 */
export function injectBatchWriteFaults(client: WithMiddleware, admit: Admit): void {
  const mw =
    (
      next: (args: { input: BatchWriteItemCommandInput }) => Promise<{ output: BatchWriteItemCommandOutput }>,
      context: { commandName?: string },
    ) =>
    async (args: { input: BatchWriteItemCommandInput }) => {
      if (context.commandName !== 'BatchWriteItemCommand') return next(args);
      let result: { output: BatchWriteItemCommandOutput } | undefined;
      const send: Send = async (input) => (result = await next({ ...args, input })).output;
      const count = Object.values(args.input.RequestItems ?? {})[0]?.length ?? 0;
      const output = await admitted(args.input, send, admit(count));
      return { ...result, output };
    };
  client.middlewareStack.add(mw as never, { step: 'finalizeRequest', priority: 'low', name: 'bench-fault' } as never);
}

/** The fault mix: `throttled` of calls refused, `partial` of calls with half their items left unprocessed. */
export function scatteredFaults(throttled: number, partial: number, seed = 8): Admit {
  const random = seededRandom(seed);
  return (n) => {
    const roll = random();
    if (roll < throttled) return 0;
    return roll < throttled + partial && n > 1 ? Math.ceil(n / 2) : n;
  };
}

/**
 * A table that takes at most `itemsPerSecond`: a token bucket holding `burstSeconds` of it. A request takes
 * what the bucket holds (all of it, part of it, or, with less than one token, nothing: a throttle).
 */
export function rateLimitedTable(
  itemsPerSecond: number,
  burstSeconds: number,
  now: () => number = () => performance.now(),
): Admit {
  const burst = itemsPerSecond * burstSeconds;
  let tokens = burst;
  let last = now();
  return (n) => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - last) / 1000) * itemsPerSecond);
    last = t;
    const taken = Math.min(n, Math.floor(tokens));
    tokens -= taken;
    return taken;
  };
}
