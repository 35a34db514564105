import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportRequest } from '../../lambdas/contract/import-request.js';
import type { ImportSummary } from '../../lambdas/contract/workflow-payloads.js';
import { DEFAULT_MAX_CONCURRENCY } from '../../lambdas/contract/limits.js';
import {
  ASL_DEFINITION_FILE,
  MAX_CONCURRENCY_PLACEHOLDER,
  TASK_FUNCTION_PLACEHOLDERS,
} from '../../lib/workflow-tasks.js';
import { packageRoot } from '../../lib/package-root.js';
import type { LocalRunOptions, StateEvent } from './run-options.js';
import { localTaskHandlers } from './task-handlers.js';
import { taskReports } from './task-reports.js';

export { invokeWithTimeout, LambdaTimeoutError } from './invoke-with-timeout.js';
export { lambdaContext, outOfTimeAfter, type ScriptedClock } from './lambda-clock.js';
export type { LocalRunOptions, RunnerEvent, StateEvent } from './run-options.js';

export const ASL_PATH = join(packageRoot(), ASL_DEFINITION_FILE);
/** Fake but well-formed ARNs: the interpreter validates Resource syntax; local handlers replace them. */
const LOCAL_ARN = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:s3-ddb-import-${name}`;
/** What `$$.StateMachine.Id` holds locally: one local state machine, as one deployed stack has one. */
export const LOCAL_STATE_MACHINE_ARN = 'arn:aws:states:us-east-1:000000000000:stateMachine:s3-ddb-import-local';
const LOCAL_STATE_MACHINE_NAME = 's3-ddb-import-local';
const localExecutionArn = (name: string) =>
  `arn:aws:states:us-east-1:000000000000:execution:${LOCAL_STATE_MACHINE_NAME}:${name}`;

type Interpreter = typeof import('aws-local-stepfunctions');
type LocalStateMachine = InstanceType<Interpreter['StateMachine']>;
type RunOptions = NonNullable<Parameters<LocalStateMachine['run']>[1]>;
type TaskHandlers = NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers'];

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
  const interpreter = await import('aws-local-stepfunctions');
  const machine = await localStateMachine(interpreter, options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
  const execution = localExecution(request, options.executionName ?? randomUUID());
  const handlers = await localTaskHandlers(options, taskReports(options.onEvent ?? (() => undefined)));
  const run = machine.run(execution.input, {
    // The interpreter types payloads as plain JSON; each handler takes the typed payload its state sends.
    overrides: {
      taskResourceLocalHandlers: handlers as unknown as TaskHandlers,
      ...(options.waitOverridesMs ? { waitTimeOverrides: { ...options.waitOverridesMs } } : {}),
    },
    context: execution.context,
  });
  const { onStateEvent } = options;
  if (onStateEvent)
    void (async () => {
      for await (const event of run.eventLogs) onStateEvent(event as StateEvent);
    })();
  try {
    return (await run.result) as unknown as ImportSummary;
  } catch (error) {
    throw error instanceof interpreter.ExecutionError && error.cause instanceof Error ? error.cause : error;
  }
}

/** The workflow file with the local ARNs and the Map's concurrency substituted, as the interpreter's machine. */
async function localStateMachine(interpreter: Interpreter, maxConcurrency: number): Promise<LocalStateMachine> {
  const definition = await loadDefinition({
    ...Object.fromEntries(
      Object.entries(TASK_FUNCTION_PLACEHOLDERS).map(([task, placeholder]) => [placeholder, LOCAL_ARN(task)]),
    ),
    [MAX_CONCURRENCY_PLACEHOLDER]: String(maxConcurrency),
  });
  // No validation at run time: asl-validator (which the interpreter would run on every start, 0.6-1.5 s of
  // CPU here) already checks this very file in test/lib/asl-definition.test.ts, so every start would repeat it.
  return new interpreter.StateMachine(definition as ConstructorParameters<Interpreter['StateMachine']>[0], {
    validationOptions: { noValidate: true },
  });
}

/** The execution's input and its `$$` context (Execution, StateMachine). */
function localExecution(request: ImportRequest, name: string) {
  const id = localExecutionArn(name);
  const startTime = new Date().toISOString();
  const input = JSON.parse(JSON.stringify(request)) as Parameters<LocalStateMachine['run']>[0];
  return {
    input,
    context: {
      Execution: { Id: id, Name: name, Input: input, StartTime: startTime },
      StateMachine: { Id: LOCAL_STATE_MACHINE_ARN, Name: LOCAL_STATE_MACHINE_NAME },
    },
  };
}
