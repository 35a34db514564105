/**
 * The Task states of `statemachine/import.asl.json` and what runs them. CDK binds each placeholder to a
 * Lambda function built from the handler file; the local runner binds the same names to the same files.
 * Paths are relative to the repository root.
 */

/** Path of the one workflow definition, relative to the repository root. */
export const ASL_DEFINITION_FILE = 'statemachine/import.asl.json';

/** Task state name to the handler file (exporting `handler`) that runs it. */
export const TASK_HANDLER_FILES = {
  Preflight: 'lambdas/preflight/handler.ts',
  ImportChunk: 'lambdas/import/handler.ts',
  Summarize: 'lambdas/summarize/handler.ts',
  FindFailedChunk: 'lambdas/failed-chunk/handler.ts',
  MirrorScan: 'lambdas/mirror-scan/handler.ts',
  MirrorParts: 'lambdas/mirror-parts/handler.ts',
} as const;

/** Task state name to the `${...}` placeholder its `Resource` holds. */
export const TASK_FUNCTION_PLACEHOLDERS = {
  Preflight: 'PreflightFunctionArn',
  ImportChunk: 'ImportFunctionArn',
  Summarize: 'SummarizeFunctionArn',
  FindFailedChunk: 'FailedChunkFunctionArn',
  MirrorScan: 'MirrorScanFunctionArn',
  MirrorParts: 'MirrorPartsFunctionArn',
} as const;

/** A Lambda function of the workflow, named by the Task state it was made for. */
export type TaskStateName = keyof typeof TASK_HANDLER_FILES;

/**
 * Every Task state of the workflow and the function it invokes: ReleaseLanes (a failed import gives its lanes
 * back) runs the Summarize function, which also releases them at the end of a successful import; FindFailedChunk
 * (a failed import's chunk error, where AWS's Map reports its threshold error instead) runs a function of its own.
 * A mirror's states run two functions: MirrorScan (MirrorPlan, MirrorScanSegment: reads the table) and MirrorParts
 * (MirrorComparePart, MirrorGuard, MirrorDeletePart: the only one that deletes).
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
