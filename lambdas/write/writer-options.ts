import type { RetryPolicy } from '../retry/backoff.js';

/** What every writer (BatchWriter, StatementWriter, ItemWriter) is given besides its calls. */
export interface WriterOptions {
  readonly table: string;
  /** Requests in flight at most; the adaptive limit halves it under push-back. */
  readonly maxInFlight?: number;
  readonly retry?: RetryPolicy;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** Called before each request with its item count; the write-rate governor waits here. */
  readonly beforeSend?: (items: number) => Promise<void>;
  /** Told of each throttled or partly unprocessed request, so a governor can back off. */
  readonly onThrottle?: () => void;
  /**
   * Aborted when the import is stopping at its deadline: from then on a request is sent at once instead of waiting
   * for a free slot, so the drain takes one request's longest retry, not that plus a wait.
   */
  readonly stopping?: AbortSignal;
  /**
   * True once the lane must stop sending at once (a pause, its deadline, a lost lease): a writer that reads ahead (the
   * partition window) then sends no held row and reports where its first unwritten row is (ItemSink.heldFrom).
   * @default - never: a flush sends every row
   */
  readonly halt?: () => boolean;
}
