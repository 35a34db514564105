import { InvalidRequestError } from '../runtime/errors.js';
import { MAX_SCAN_STATE_BYTES, STATE_PAYLOAD_LIMIT_BYTES } from '../runtime/limits.js';
import type { ScanState } from '../request/workflow-payloads.js';

/**
 * Refuses a request whose workflow state would be too large to carry (a header of thousands of columns, a
 * huge `types` map) before any work, with the sizes, instead of a later States.DataLimitExceeded.
 */
export function checkStateSize(state: ScanState): void {
  const bytes = Buffer.byteLength(JSON.stringify(state));
  if (bytes <= MAX_SCAN_STATE_BYTES) return;
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  throw new InvalidRequestError([
    `header: ${state.columns.length} columns (and the request's types) make the workflow state ${kib(bytes)}, ` +
      `over the ${kib(MAX_SCAN_STATE_BYTES)} an import allows so that its chunk list and results stay under ` +
      `Step Functions' ${kib(STATE_PAYLOAD_LIMIT_BYTES)} state limit; import fewer or shorter columns`,
  ]);
}
