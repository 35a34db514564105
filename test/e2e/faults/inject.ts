import type { BatchWriteItemCommandInput, BatchWriteItemCommandOutput } from '@aws-sdk/client-dynamodb';
import type { GetObjectCommandInput, GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { createWiring, type Wiring } from '../../../lambdas/wiring/wiring.js';

/**
 * Faults are SDK v3 middleware on the clients the handlers are built with (this file's `faultWiring`, which
 * the fault tests pass to the runner), never a fake server: every request that is not faulted reaches the
 * real local engine.
 */
export const FAULT = 'fault';

let wiring: Wiring | undefined;

/** The wiring the fault tests run the workflow with: real clients (endpoints from the environment). */
export function faultWiring(): Wiring {
  return (wiring ??= createWiring());
}

/**
 * Where the middleware sits. `initialize` is outside the SDK's own retry (the BatchWriter and readRange see
 * every fault) and the only step where rewriting the input changes what is sent; `finalizeRequest` (low
 * priority) is inside the retry, where a server reply would be: the SDK retries the fault itself first.
 */
export type FaultStep = 'initialize' | 'finalizeRequest';

/** A command handler seen from a fault: it may call `send` (the rest of the stack) with any input, or not. */
export type Fault<I, O> = (input: I, send: (input: I) => Promise<O>) => Promise<O>;

interface Result<O> {
  output: O;
  response?: unknown;
}
type Handler<I, O> = (args: { input: I }) => Promise<Result<O>>;

function middleware<I, O>(command: string, applies: (input: I) => boolean, fault: Fault<I, O>) {
  return (next: Handler<I, O>, context: { commandName?: string }) =>
    async (args: { input: I }): Promise<Result<O>> => {
      if (context.commandName !== command || !applies(args.input)) return next(args);
      let response: unknown;
      const send = async (input: I) => {
        const result = await next({ ...args, input });
        response = result.response;
        return result.output;
      };
      const output = await fault(args.input, send);
      return { output, response };
    };
}

/**
 * First in `initialize` (before the SDK touches the input); last in `finalizeRequest` (inside its retry).
 * Typed `never`: the stack's `add` is overloaded per step, and the middleware is generic over commands.
 */
function options(step: FaultStep): never {
  return { step, name: FAULT, priority: step === 'initialize' ? 'high' : 'low' } as never;
}

/**
 * Runs `fault` for every BatchWriteItem the handlers send to `table` (other tables pass through), on the
 * shared fault wiring or on one a test built with its own config. BatchWriteItem goes through the wiring's
 * DynamoDbWriteTransport, which has no retry of its own: at either step the fault sees each request once, where
 * DynamoDB's reply would be.
 */
export function faultBatchWrites(
  table: string,
  step: FaultStep,
  fault: Fault<BatchWriteItemCommandInput, BatchWriteItemCommandOutput>,
  on: Wiring = faultWiring(),
): void {
  const mw = middleware(
    'BatchWriteItemCommand',
    (input: BatchWriteItemCommandInput) => table in (input.RequestItems ?? {}),
    fault,
  );
  on.writeTransport.middlewareStack.add(mw as never, options(step));
}

/** Runs `fault` for every GetObject the handlers send for `bucket` (other buckets pass through). */
export function faultGetObjects(
  bucket: string,
  step: FaultStep,
  fault: Fault<GetObjectCommandInput, GetObjectCommandOutput>,
  on: Wiring = faultWiring(),
): void {
  const mw = middleware('GetObjectCommand', (input: GetObjectCommandInput) => input.Bucket === bucket, fault);
  on.s3.middlewareStack.add(mw as never, options(step));
}

/** Takes every injected fault off the handlers' clients (for afterEach, which passes its own argument). */
export function removeFaults(): void {
  removeFaultsFrom(faultWiring());
}

/** Takes every injected fault off the clients of `on`. */
export function removeFaultsFrom(on: Wiring): void {
  on.writeTransport.middlewareStack.remove(FAULT);
  on.s3.middlewareStack.remove(FAULT);
}
