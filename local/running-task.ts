import { AsyncLocalStorage } from 'node:async_hooks';
import type { TaskStateName } from '../lib/workflow-tasks.js';

/**
 * The Task state whose handler the local runner is running, seen from anything that handler calls, however
 * deep and across awaits: in Lambda each function has its own process and role, locally all three share one
 * process and one set of SDK clients, so this is how a call is told apart (test/e2e/iam records each AWS call
 * under the function that made it and checks it against that function's policy).
 */
export const runningTask = new AsyncLocalStorage<TaskStateName>();
