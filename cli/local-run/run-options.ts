import type { SFNClient } from '@aws-sdk/client-sfn';
import type { Wiring } from '../../lambdas/wiring/wiring.js';
import type { TaskStateName } from '../../lib/workflow-tasks.js';
import type { Checkpoint, Chunk, PlanningState } from '../../lambdas/contract/workflow-payloads.js';
import type { ScriptedClock } from './lambda-clock.js';
import type { TaskPayloads } from '../../lambdas/contract/task-payloads.js';

/** What the runner tells its caller while the workflow runs. */
export type RunnerEvent =
  | {
      type: 'preflight';
      chunks: number;
      chunkList: Chunk[];
      scanComplete: boolean;
      offset: number;
      size: number;
      queue: PlanningState['queue'];
      lanes: PlanningState['lanes'];
    }
  | {
      type: 'chunk-start';
      chunkIndex: number;
      /**
       * Where this invocation starts: the chunk's start, or the checkpoint the last one returned. Always set by
       * the runner (optional only so that hand-made events may leave it out).
       */
      from?: Checkpoint;
    }
  | {
      type: 'chunk-progress';
      chunkIndex: number;
      done: boolean;
      rows: number;
      written: number;
      rejected: number;
      /** The checkpoint this invocation returned, null when the chunk is done. Always set by the runner. */
      next?: Checkpoint | null;
    }
  | MirrorEvent;

/**
 * A mirror's phase (cli/local-run/mirror-tasks.ts): Scan segments done of all and the table's keys in scope so far;
 * parts compared and the keys the file dropped; parts whose deletes are done and the items deleted.
 */
export interface MirrorEvent {
  readonly type: 'mirror';
  readonly step: 'scanning table' | 'comparing' | 'deleting';
  readonly done: number;
  readonly total: number;
  readonly keys: number;
}

export interface LocalRunOptions {
  /** The Lambda timeout the handlers see through getRemainingTimeInMillis(). @default 900_000 */
  readonly timeoutMs?: number;
  /** A different timeout for one task (tests loop preflight with a tiny one). @default - timeoutMs */
  readonly taskTimeoutsMs?: { readonly [T in TaskStateName]?: number };
  /**
   * Scripted clocks (lambda-clock.ts), for tests and local runs that must stop at checkpoints on a count, not on
   * the machine's speed: each invocation of a task given one sees a day left until its script says it is out of
   * time, then none. The task's timeout still fails an invocation that has not returned in time, on the real clock.
   * @default - the real clock: the remaining time runs down from the task's timeout
   */
  readonly clocks?: { readonly [T in TaskStateName]?: ScriptedClock };
  /** The Map's MaxConcurrency substitution. @default 40 */
  readonly maxConcurrency?: number;
  /** @default a random UUID, as Step Functions names executions */
  readonly executionName?: string;
  readonly onEvent?: (event: RunnerEvent) => void;
  /**
   * The clients and configuration the handlers are built with (tests wrap these clients to inject faults).
   * Its control plane is replaced by `concurrency`.
   * @default - fresh clients from the SDK's configuration chain (AWS_ENDPOINT_URL_* etc.), default config
   */
  readonly wiring?: Wiring;
  /**
   * What preflight asks about running imports and Lambda concurrency.
   * @default - this process's registry of local imports (local-concurrency.ts), no Lambda concurrency
   */
  readonly concurrency?: Wiring['control'];
  /**
   * The Step Functions client FindFailedChunk reads a Map Run with. The in-process interpreter reports a chunk's own
   * error, so only a test that gives the Map AWS's threshold error reaches it. @default a client from the SDK's chain
   */
  readonly sfn?: SFNClient;
  /**
   * Fixed durations (ms) for the workflow's Wait states, whatever their SecondsPath says (the interpreter's
   * waitTimeOverrides): tests make WaitForLanes and PausedWait ask again at once. @default - the workflow's waits
   */
  readonly waitOverridesMs?: { readonly WaitForLanes?: number; readonly PausedWait?: number };
  /** The interpreter's own events (StateEntered, StateRetried, MapIterationStarted, ...), for tests and tracing. */
  readonly onStateEvent?: (event: StateEvent) => void;
  /**
   * Tasks whose invocations run another way than in this process, given the input and the time left: the bench
   * runs each mirror step in a process of its own, so each step's peak memory is its own, as in a Lambda sandbox.
   * Timeouts, error names and reports apply as to any invocation. @default - every task in this process
   */
  readonly invokers?: { readonly [T in TaskStateName]?: TaskInvoker<T> };
}

/** Runs one invocation of task `T` outside the runner's process (LocalRunOptions.invokers). */
export type TaskInvoker<T extends TaskStateName> = (
  input: TaskPayloads[T]['event'],
  remainingMs: number,
) => Promise<TaskPayloads[T]['result']>;

/** One event of aws-local-stepfunctions' execution log, as much of it as callers read. */
export interface StateEvent {
  readonly type: string;
  readonly state?: { readonly name: string };
  readonly parentState?: { readonly type: string; readonly name: string };
  readonly index?: number;
  readonly Error?: string;
  readonly retry?: { readonly retrier: { readonly ErrorEquals: readonly string[] }; readonly attempt: number };
}

/** What the runner reports around one task's invocations: before it runs, and once it returned. */
export interface TaskReport<T extends TaskStateName> {
  before?(input: TaskPayloads[T]['event']): void;
  after?(input: TaskPayloads[T]['event'], output: TaskPayloads[T]['result']): void;
}

/** The reports of the tasks the progress printer follows (task-reports.ts, mirror-reports.ts); a task without one reports nothing. */
export type TaskReports = { readonly [T in TaskStateName]?: TaskReport<T> };
