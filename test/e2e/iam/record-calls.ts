import type { Wiring } from '../../../lambdas/wiring/wiring.js';
import { runningTask } from '../../../cli/local-run/running-task.js';
import { permissionsFor, type ArnContext, type Permission } from './call-permissions.js';

// These calls are told apart by the task that made them (off unless a test asks: see running-task.ts).
runningTask.track();

/** What a function needed for its calls of one kind, with how many calls there were. */
export interface RecordedCall {
  /** The Task state whose handler made the call (cli/local-run/running-task.ts), or OUTSIDE_TASKS. */
  readonly task: string;
  /** `<client name>.<command name>`, e.g. `S3Client.GetObjectCommand`. */
  readonly command: string;
  /** HTTP status of the reply, when one arrived. */
  readonly status: number | undefined;
  /** What the call needs in IAM; undefined when call-permissions.ts does not know the command yet. */
  readonly permissions: readonly Permission[] | undefined;
  count: number;
}

/** The task of a call made outside any handler (none should be: only handlers use the recorded clients). */
export const OUTSIDE_TASKS = '(outside any task)';

/**
 * The calls recorded so far, one entry per task, command, status and needed permissions (an import sends
 * thousands of BatchWriteItem requests; they collapse to a handful of entries).
 */
export class CallLog {
  private readonly entries = new Map<string, RecordedCall>();

  constructor(readonly arn: ArnContext) {}

  add(task: string, command: string, input: Record<string, unknown>, status: number | undefined): void {
    const [client, name] = command.split('.');
    const permissions = permissionsFor(client, name, input, { status }, this.arn);
    const key = JSON.stringify([task, command, status, permissions]);
    const entry = this.entries.get(key);
    if (entry) entry.count++;
    else this.entries.set(key, { task, command, status, permissions, count: 1 });
  }

  get calls(): RecordedCall[] {
    return [...this.entries.values()];
  }
}

export interface SdkClient {
  readonly middlewareStack: { add: (...args: never[]) => void; remove: (name: string) => boolean };
}

const isSdkClient = (value: unknown): value is SdkClient =>
  typeof (value as Partial<SdkClient> | undefined)?.middlewareStack?.add === 'function';

/** Every SDK client of a wiring, its control plane's (Step Functions, Lambda) included. */
function sdkClients(wiring: Wiring): SdkClient[] {
  return [...Object.values(wiring), ...Object.values(wiring.control)].filter(isSdkClient);
}

/** Where the recorder sits: once per call, before the SDK's retries, so retried attempts count once. */
const RECORDER = { name: 'iamCallRecorder', step: 'initialize', priority: 'low', override: true } as const;

interface MiddlewareContext {
  readonly clientName?: string;
  readonly commandName?: string;
}
type Next = (args: { input: Record<string, unknown> }) => Promise<{ response?: unknown }>;

const statusOf = (response: unknown) => (response as { statusCode?: number } | undefined)?.statusCode;
const errorStatus = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/**
 * Records every call the handlers built from `wiring` send, into `log`, under the Task whose handler sent it:
 * the one attach point, on each SDK client of the wiring. A fault that answers before this middleware
 * (test/e2e/faults/inject.ts at 'initialize', high priority) sent nothing and is not recorded.
 */
export function recordCalls(wiring: Wiring, log: CallLog): void {
  for (const client of sdkClients(wiring)) recordClient(client, log);
}

/** Takes the recorder off the wiring's clients again. */
export function stopRecording(wiring: Wiring): void {
  for (const client of sdkClients(wiring)) client.middlewareStack.remove(RECORDER.name);
}

/** Records the calls of one more client the handlers use outside the wiring (FindFailedChunk's Step Functions). */
export function recordClient(client: SdkClient, log: CallLog): void {
  const middleware = (next: Next, context: MiddlewareContext) => async (args: { input: Record<string, unknown> }) => {
    const task = runningTask.getStore() ?? OUTSIDE_TASKS;
    const command = `${context.clientName}.${context.commandName}`;
    try {
      const result = await next(args);
      log.add(task, command, args.input, statusOf(result.response));
      return result;
    } catch (error) {
      log.add(task, command, args.input, errorStatus(error));
      throw error;
    }
  };
  // Typed `never`: the stack's `add` is overloaded per step and the middleware serves every command.
  client.middlewareStack.add(middleware as never, RECORDER as never);
}
