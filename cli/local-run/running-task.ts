import { AsyncLocalStorage } from 'node:async_hooks';
import type { TaskStateName } from '../../lib/workflow-tasks.js';

const storage = new AsyncLocalStorage<TaskStateName>();
let tracking = false;

/**
 * The Task state whose handler the local runner is running, seen from anything that handler calls, however
 * deep and across awaits: in Lambda each function has its own process and role, locally all three share one
 * process and one set of SDK clients, so this is how a call is told apart (test/e2e/iam records each AWS call
 * under the function that made it and checks it against that function's policy).
 *
 * Off until a test calls `track()`: on Node 20 the first `AsyncLocalStorage.run` turns on promise hooks for the
 * whole process, which cost about 8% of a local import's CPU (a promise per record batch and per request),
 * for a record only tests read.
 */
export const runningTask = {
  /** Records the running task from now on, in this process. */
  track(): void {
    tracking = true;
  },
  /** Runs `fn` as `task`'s handler. */
  run<T>(task: TaskStateName, fn: () => T): T {
    return tracking ? storage.run(task, fn) : fn();
  },
  /** The task running in this async context; undefined outside a handler or when not tracking. */
  getStore(): TaskStateName | undefined {
    return storage.getStore();
  },
};
