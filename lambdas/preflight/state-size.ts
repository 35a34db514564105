import { InvalidRequestError } from '../contract/errors.js';
import {
  MAX_PLANNING_STATE_BYTES,
  MAX_SOURCES_STATE_BYTES,
  MAX_SOURCE_OBJECTS,
  STATE_PAYLOAD_LIMIT_BYTES,
} from '../contract/limits.js';
import type { PlanningState } from '../contract/workflow-payloads.js';

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/**
 * Refuses a request whose workflow state would be too large to carry before any work, with the sizes, instead
 * of a later States.DataLimitExceeded: a header of thousands of columns or a huge `types` map (the state less
 * its object list), or an object list too long (many objects, long keys). The budget is in contract/limits.ts.
 */
export function checkStateSize(state: PlanningState): void {
  const problems: string[] = [];
  const sourcesBytes = Buffer.byteLength(JSON.stringify(state.sources));
  const restBytes = Buffer.byteLength(JSON.stringify({ ...state, sources: null }));
  if (restBytes > MAX_PLANNING_STATE_BYTES) {
    problems.push(
      `header: ${state.columns.length} columns (and the request's types) make the workflow state ${kib(restBytes)}, ` +
        `over the ${kib(MAX_PLANNING_STATE_BYTES)} an import allows so that its chunk list and results stay under ` +
        `Step Functions' ${kib(STATE_PAYLOAD_LIMIT_BYTES)} state limit; import fewer or shorter columns`,
    );
  }
  if (sourcesBytes > MAX_SOURCES_STATE_BYTES) {
    const count = state.sources.objects.length;
    problems.push(
      `prefix: the list of its ${count} objects (keys past their common folder ` +
        `${JSON.stringify(state.sources.folder)}, sizes, ETags) is ${kib(sourcesBytes)}, over the ` +
        `${kib(MAX_SOURCES_STATE_BYTES)} the workflow state holds for it (at most ${MAX_SOURCE_OBJECTS} objects, fewer with ` +
        'long keys); import sub-prefixes one by one',
    );
  }
  if (problems.length > 0) throw new InvalidRequestError(problems);
}
