import { loadDefinition, type LocalRunOptions } from '../../../cli/local-run/runner.js';
import { localTaskHandlers } from '../../../cli/local-run/task-handlers.js';
import type { TaskReports } from '../../../cli/local-run/run-options.js';
import { MAX_CONCURRENCY_PLACEHOLDER, TASK_FUNCTION_PLACEHOLDERS } from '../../../lib/workflow-tasks.js';

type Interpreter = typeof import('aws-local-stepfunctions');
type Definition = ConstructorParameters<Interpreter['StateMachine']>[0];
type Handlers = NonNullable<NonNullable<Parameters<InstanceType<Interpreter['StateMachine']>['run']>[1]>['overrides']>;

/** The ImportChunks Map's item processor of statemachine/import.asl.json: what each child execution runs. */
async function itemProcessor(): Promise<Definition> {
  const arns = Object.values(TASK_FUNCTION_PLACEHOLDERS).map((p) => [p, `arn:aws:lambda:us-east-1:0:function:${p}`]);
  const definition = (await loadDefinition({ ...Object.fromEntries(arns), [MAX_CONCURRENCY_PLACEHOLDER]: '1' })) as {
    States: { ImportChunks: { ItemProcessor: { StartAt: string; States: Definition['States'] } } };
  };
  const { StartAt, States } = definition.States.ImportChunks.ItemProcessor;
  return { StartAt, States };
}

/**
 * What a redrive of the parent execution re-runs when it has no `MapStateExited` event: every unsuccessful child of
 * the Map Run, each continued from its failed state with that state's input (RedriveExecution "continues the failed
 * execution from the unsuccessful step and uses the same input":
 * https://docs.aws.amazon.com/step-functions/latest/apireference/API_RedriveExecution.html). Neither local
 * interpreter nor engine has RedriveExecution, so this runs the workflow file's own item processor (ImportChunk,
 * ChunkComplete?, PausedWait, ...) from `ImportChunk` with each given input, on the real handler bundles: Preflight
 * is not run again, as a redrive does not run it.
 */
export async function redriveChunks(
  inputs: readonly unknown[],
  options: LocalRunOptions,
  reports: TaskReports = {},
): Promise<unknown[]> {
  const interpreter = await import('aws-local-stepfunctions');
  const machine = new interpreter.StateMachine(await itemProcessor(), { validationOptions: { noValidate: true } });
  const handlers = (await localTaskHandlers(options, reports)) as unknown as Handlers['taskResourceLocalHandlers'];
  const waits = options.waitOverridesMs ? { waitTimeOverrides: { ...options.waitOverridesMs } } : {};
  return Promise.all(
    inputs.map((input) => {
      const run = machine.run(input as never, { overrides: { taskResourceLocalHandlers: handlers, ...waits } });
      return run.result.catch((error: Error) => {
        throw error.cause instanceof Error ? error.cause : error;
      });
    }),
  );
}
