/**
 * What preflight asks of the AWS control plane, behind one small interface: the deployed handler answers
 * from Step Functions and Lambda (control-plane-aws.ts); the local runner, which has neither, answers from
 * its own registry of the imports it runs.
 */

/** An execution of the import workflow, as the workflow's context object names it. */
export interface ExecutionRef {
  /** The execution's ARN. */
  readonly id: string;
  /** ISO 8601, as `$$.Execution.StartTime` and ListExecutions give it. */
  readonly startTime: string;
}

/** An execution of the import workflow that is still running, and the table it imports into. */
export interface RunningImport extends ExecutionRef {
  /** The request's `table`, or null when the execution's input could not be read. */
  readonly table: string | null;
}

/** The Lambda concurrency the import function can use. */
export interface ImportConcurrency {
  /** The import function's reserved concurrency, or null when it has none. */
  readonly reserved: number | null;
  /** The account's unreserved concurrency in this Region (what functions without a reservation share). */
  readonly unreserved: number | null;
}

export interface ControlPlane {
  /**
   * Top-level executions of the state machine that are running now and started no later than `self` (only
   * those can be ahead of it in a queue), `self` left out. Child executions of a Map Run are never listed.
   */
  runningImports(stateMachineArn: string, self: ExecutionRef): Promise<RunningImport[]>;
  /** The import function's concurrency, or null where imports do not run on Lambda (local runs). */
  importConcurrency(): Promise<ImportConcurrency | null>;
}
