import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createWiring, type Wiring } from '../../lambdas/wiring/wiring.js';
import type { ImportRequest } from '../../lambdas/contract/import-request.js';
import type {
  Chunk,
  ChunkProgress,
  ImportChunkEvent,
  ImportSummary,
  PreflightEvent,
  ScanState,
  SummarizeEvent,
} from '../../lambdas/contract/workflow-payloads.js';
import { DEFAULT_LAMBDA_TIMEOUT_SECONDS, DEFAULT_MAX_CONCURRENCY } from '../../lambdas/contract/limits.js';
import {
  ASL_DEFINITION_FILE,
  MAX_CONCURRENCY_PLACEHOLDER,
  TASK_FUNCTION_PLACEHOLDERS,
  type TaskStateName,
} from '../../lib/workflow-tasks.js';
import { loadHandlerFactories } from './handler-bundles.js';
import { localControlPlane } from './local-control-plane.js';
import { installPromiseWithResolvers } from './promise-with-resolvers.js';
import { runningTask } from './running-task.js';
import { packageRoot } from './package-root.js';

export const ASL_PATH = join(packageRoot(), ASL_DEFINITION_FILE);
/**
 * Slack past the nominal timeout before a local invocation counts as timed out. Lambda has none, but
 * a 2-core machine running DynamoDB Local, MinIO and two test files at once can stall a handler that
 * already stopped at its checkpoint for seconds before it hands back.
 */
const HARD_TIMEOUT_GRACE_MS = 5000;
/** Fake but well-formed ARNs: the interpreter validates Resource syntax; local handlers replace them. */
const LOCAL_ARN = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:s3-ddb-import-${name}`;
/** What `$$.StateMachine.Id` holds locally: one local state machine, as one deployed stack has one. */
export const LOCAL_STATE_MACHINE_ARN = 'arn:aws:states:us-east-1:000000000000:stateMachine:s3-ddb-import-local';
const localExecutionArn = (name: string) =>
  `arn:aws:states:us-east-1:000000000000:execution:s3-ddb-import-local:${name}`;

type TaskHandlers = NonNullable<
  NonNullable<Parameters<InstanceType<typeof import('aws-local-stepfunctions').StateMachine>['run']>[1]>['overrides']
>['taskResourceLocalHandlers'];

/** What the runner tells its caller while the workflow runs. */
export type RunnerEvent =
  | {
      type: 'preflight';
      chunks: number;
      chunkList: Chunk[];
      scanComplete: boolean;
      offset: number;
      size: number;
      queue: ScanState['queue'];
      lanes: ScanState['lanes'];
    }
  | { type: 'chunk-start'; chunkIndex: number }
  | { type: 'chunk-progress'; chunkIndex: number; done: boolean; rows: number; written: number; rejected: number };

export interface LocalRunOptions {
  /** The Lambda timeout the handlers see through getRemainingTimeInMillis(). @default 900_000 */
  readonly timeoutMs?: number;
  /** A different timeout for one task (tests loop preflight with a tiny one). @default - timeoutMs */
  readonly taskTimeoutsMs?: { readonly Preflight?: number; readonly ImportChunk?: number };
  /** The Map's MaxConcurrency substitution. @default 40 */
  readonly maxConcurrency?: number;
  /** @default a random UUID, as Step Functions names executions */
  readonly executionName?: string;
  readonly onEvent?: (event: RunnerEvent) => void;
  /**
   * The clients and configuration the handlers are built with (tests wrap these clients to inject faults).
   * Its control plane is replaced by `controlPlane`.
   * @default - fresh clients from the SDK's configuration chain (AWS_ENDPOINT_URL_* etc.), default config
   */
  readonly wiring?: Wiring;
  /**
   * What preflight asks about running imports and Lambda concurrency.
   * @default - this process's registry of local imports (local-control-plane.ts), no Lambda concurrency
   */
  readonly controlPlane?: Wiring['control'];
  /** The interpreter's own events (StateEntered, StateRetried, MapIterationStarted, ...), for tests and tracing. */
  readonly onStateEvent?: (event: StateEvent) => void;
}

/** One event of aws-local-stepfunctions' execution log, as much of it as callers read. */
export interface StateEvent {
  readonly type: string;
  readonly state?: { readonly name: string };
  readonly parentState?: { readonly type: string; readonly name: string };
  readonly index?: number;
  readonly Error?: string;
  readonly retry?: { readonly retrier: { readonly ErrorEquals: readonly string[] }; readonly attempt: number };
}

/** A Lambda-like context whose remaining time runs down from `timeoutMs` from the moment it is made. */
export function lambdaContext(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  return { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}

/**
 * The error Step Functions reports when a Lambda function runs past its timeout: `Lambda.Unknown`
 * ("Unhandled errors in Lambda are reported as Lambda.Unknown ... These include out-of-memory errors and
 * function timeouts": https://docs.aws.amazon.com/step-functions/latest/dg/bp-lambda-serviceexception.html),
 * so local runs exercise the workflow's real retrier.
 */
export class LambdaTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
    this.name = 'Lambda.Unknown';
  }
}

/**
 * Calls a handler as Lambda does: with a fresh context, and failing with Lambda.Unknown if it has not
 * returned by its timeout (Lambda would freeze it; here its late result is ignored). Checkpointing
 * handlers return well before; the workflow's Retry on Lambda.Unknown covers the rest.
 */
export async function invokeWithTimeout<T>(
  timeoutMs: number,
  invoke: (context: ReturnType<typeof lambdaContext>) => Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LambdaTimeoutError(timeoutMs)), timeoutMs + HARD_TIMEOUT_GRACE_MS);
  });
  try {
    return await Promise.race([invoke(lambdaContext(timeoutMs)), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads the workflow file and fills its ${placeholders} as CDK's definitionSubstitutions does. */
export async function loadDefinition(substitutions: Record<string, string>): Promise<unknown> {
  const text = await readFile(ASL_PATH, 'utf8');
  return JSON.parse(
    text.replace(/\$\{(\w+)\}/g, (placeholder, name: string) => {
      if (!(name in substitutions)) throw new Error(`no substitution for ${placeholder} in ${ASL_PATH}`);
      return substitutions[name];
    }),
  );
}

/**
 * Runs statemachine/import.asl.json with aws-local-stepfunctions, its Task states bound to the real
 * handlers. Services come from the AWS_ENDPOINT_URL_* environment. Resolves with the execution output;
 * rejects with the failing state's error (its `name` is the Step Functions error name).
 */
export async function runLocalImport(request: ImportRequest, options: LocalRunOptions = {}): Promise<ImportSummary> {
  installPromiseWithResolvers();
  const { StateMachine, ExecutionError } = await import('aws-local-stepfunctions');
  const timeoutMs = options.timeoutMs ?? DEFAULT_LAMBDA_TIMEOUT_SECONDS * 1000;
  const preflightTimeoutMs = options.taskTimeoutsMs?.Preflight ?? timeoutMs;
  const importTimeoutMs = options.taskTimeoutsMs?.ImportChunk ?? timeoutMs;
  const emit = options.onEvent ?? (() => undefined);
  const definition = await loadDefinition({
    ...Object.fromEntries(
      Object.entries(TASK_FUNCTION_PLACEHOLDERS).map(([task, placeholder]) => [placeholder, LOCAL_ARN(task)]),
    ),
    [MAX_CONCURRENCY_PLACEHOLDER]: String(options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY),
  });
  // No validation at run time: asl-validator (which the interpreter would run on every start, 0.6-1.5 s of
  // CPU here) already checks this very file in test/lib/asl-definition.test.ts, so every start would repeat it.
  const machine = new StateMachine(definition as ConstructorParameters<typeof StateMachine>[0], {
    validationOptions: { noValidate: true },
  });
  const wiring = { ...(options.wiring ?? createWiring()), control: options.controlPlane ?? localControlPlane };
  const factories = await loadHandlerFactories(); // the esbuild bundles: what deploys, not the sources
  const preflightHandler = factories.Preflight(wiring);
  const importHandler = factories.ImportChunk(wiring);
  const summarizeHandler = factories.Summarize(wiring);
  const taskResourceLocalHandlers = {
    Preflight: async (input: PreflightEvent) => {
      const state: ScanState = await runningTask.run('Preflight', () =>
        invokeWithTimeout(preflightTimeoutMs, (context) => preflightHandler(input, context)),
      );
      emit({
        type: 'preflight',
        chunks: state.chunks.length,
        chunkList: state.chunks,
        scanComplete: state.scanComplete,
        offset: state.checkpoint.offset,
        size: state.object.size,
        queue: state.queue,
        lanes: state.lanes,
      });
      return state;
    },
    ImportChunk: async (input: ImportChunkEvent) => {
      emit({ type: 'chunk-start', chunkIndex: input.chunkIndex });
      const progress: ChunkProgress = await runningTask.run('ImportChunk', () =>
        invokeWithTimeout(importTimeoutMs, (context) => importHandler(input, context)),
      );
      emit({ type: 'chunk-progress', chunkIndex: input.chunkIndex, done: progress.next === null, ...progress });
      return progress;
    },
    Summarize: (input: SummarizeEvent) =>
      runningTask.run('Summarize', () => invokeWithTimeout(timeoutMs, () => summarizeHandler(input))),
  } satisfies Record<TaskStateName, unknown>; // every Task state of the workflow is bound to its handler
  const executionName = options.executionName ?? randomUUID();
  const executionArn = localExecutionArn(executionName);
  const startTime = new Date().toISOString();
  const input = JSON.parse(JSON.stringify(request)) as Parameters<typeof machine.run>[0];
  // Registered with the local control plane for as long as it runs, as ListExecutions would show it.
  const unregister = localControlPlane.register(LOCAL_STATE_MACHINE_ARN, {
    id: executionArn,
    startTime,
    table: request.table,
  });
  const execution = machine.run(input, {
    // The interpreter types payloads as plain JSON; each handler takes the typed payload its state sends.
    overrides: { taskResourceLocalHandlers: taskResourceLocalHandlers as unknown as TaskHandlers },
    context: {
      Execution: { Id: executionArn, Name: executionName, Input: input, StartTime: startTime },
      StateMachine: { Id: LOCAL_STATE_MACHINE_ARN, Name: 's3-ddb-import-local' },
    },
  });
  if (options.onStateEvent) forwardStateEvents(execution.eventLogs, options.onStateEvent);
  try {
    return (await execution.result) as unknown as ImportSummary;
  } catch (error) {
    throw error instanceof ExecutionError && error.cause instanceof Error ? error.cause : error;
  } finally {
    unregister();
  }
}

async function forwardStateEvents(
  events: AsyncIterable<unknown>,
  onStateEvent: (event: StateEvent) => void,
): Promise<void> {
  for await (const event of events) onStateEvent(event as StateEvent);
}
