/**
 * The Task states of `statemachine/import.asl.json` and what runs them. CDK binds each placeholder to a
 * Lambda function built from the handler file; the local runner binds the same names to the same files.
 * Paths are relative to the repository root.
 */

/** Path of the one workflow definition, relative to the repository root. */
export const ASL_DEFINITION_FILE = 'statemachine/import.asl.json';

/** One Lambda function of the workflow, as its row in {@link TASK_FUNCTIONS} declares it. */
export interface TaskFunction {
  /** The handler file (exporting `handler` and the factory), relative to the repository root. */
  readonly handlerFile: string;
  /** The handler file's factory export: `(wiring) => handler`, which the local runner builds the task with. */
  readonly factory: string;
  /** The `${...}` placeholder its Task states' `Resource` holds. */
  readonly placeholder: string;
}

/**
 * Every Lambda function of the workflow, named by the Task state it was made for: CDK builds one function per row
 * and the local runner binds every row with one invoke (cli/local-run/task-handlers.ts), so a new Task is a row here
 * (with its payload types in lambdas/contract/task-payloads.ts and its state in TASK_STATE_FUNCTIONS).
 * @example
 * TASK_FUNCTIONS.Summarize.handlerFile; // 'lambdas/summarize/handler.ts'
 */
export const TASK_FUNCTIONS = {
  Preflight: {
    handlerFile: 'lambdas/preflight/handler.ts',
    factory: 'createPreflightHandler',
    placeholder: 'PreflightFunctionArn',
  },
  ImportChunk: {
    handlerFile: 'lambdas/import/handler.ts',
    factory: 'createImportHandler',
    placeholder: 'ImportFunctionArn',
  },
  Summarize: {
    handlerFile: 'lambdas/summarize/handler.ts',
    factory: 'createSummarizeFunctionHandler',
    placeholder: 'SummarizeFunctionArn',
  },
  FindFailedChunk: {
    handlerFile: 'lambdas/failed-chunk/handler.ts',
    factory: 'createFailedChunkHandler',
    placeholder: 'FailedChunkFunctionArn',
  },
  MirrorScan: {
    handlerFile: 'lambdas/mirror-scan/handler.ts',
    factory: 'createMirrorScanHandler',
    placeholder: 'MirrorScanFunctionArn',
  },
  MirrorParts: {
    handlerFile: 'lambdas/mirror-parts/handler.ts',
    factory: 'createMirrorPartsHandler',
    placeholder: 'MirrorPartsFunctionArn',
  },
} as const satisfies Record<string, TaskFunction>;

/** A Lambda function of the workflow, named by the Task state it was made for. */
export type TaskStateName = keyof typeof TASK_FUNCTIONS;

/** One field of every row of {@link TASK_FUNCTIONS}, by task. */
function fieldOf<F extends keyof TaskFunction>(field: F) {
  const entries = Object.entries(TASK_FUNCTIONS).map(([task, row]) => [task, row[field]]);
  return Object.fromEntries(entries) as { readonly [T in TaskStateName]: (typeof TASK_FUNCTIONS)[T][F] };
}

/** Task state name to the handler file (exporting `handler`) that runs it. */
export const TASK_HANDLER_FILES = fieldOf('handlerFile');

/** Task state name to the `${...}` placeholder its `Resource` holds. */
export const TASK_FUNCTION_PLACEHOLDERS = fieldOf('placeholder');

/**
 * Every Task state of the workflow and the function it invokes: ReleaseLanes (a failed import gives its lanes
 * back) runs the Summarize function, which also releases them at the end of a successful import; FindFailedChunk
 * (a failed import's chunk error, where AWS's Map reports its threshold error instead) runs a function of its own.
 * A mirror's states run two functions: MirrorScan (MirrorPlan, MirrorScanSegment: reads the table) and MirrorParts
 * (MirrorComparePart, MirrorDropKeyParts, MirrorGuard, MirrorDeletePart: the only one that deletes).
 */
export const TASK_STATE_FUNCTIONS = {
  Preflight: 'Preflight',
  ImportChunk: 'ImportChunk',
  Summarize: 'Summarize',
  ReleaseLanes: 'Summarize',
  FindFailedChunk: 'FindFailedChunk',
  MirrorPlan: 'MirrorScan',
  MirrorScanSegment: 'MirrorScan',
  MirrorComparePart: 'MirrorParts',
  MirrorDropKeyParts: 'MirrorParts',
  MirrorGuard: 'MirrorParts',
  MirrorDeletePart: 'MirrorParts',
} as const satisfies Record<string, TaskStateName>;

/**
 * The chunks Map's `Label`: it names the Map Runs, whose child executions the state machine may redrive
 * (the grant names the label), and tests check the workflow file uses this one.
 */
export const CHUNKS_MAP_LABEL = 'ImportChunks';

/** Placeholder holding the Map's MaxConcurrency as decimal text (the ASL turns it into a number). */
export const MAX_CONCURRENCY_PLACEHOLDER = 'MaxConcurrency';

/** Every `${...}` placeholder the definition may hold; each gets a substitution. */
export const ASL_PLACEHOLDERS: readonly string[] = [
  ...Object.values(TASK_FUNCTION_PLACEHOLDERS),
  MAX_CONCURRENCY_PLACEHOLDER,
];
