/**
 * One look at a running import, whichever runner it comes from: the local runner's events (cli/local-run/progress-printer.ts)
 * or a deployed execution's history, Map Run and metrics (cli/cloud/execution-snapshot.ts). One renderer
 * (./renderer.ts) draws both, so `local` and `start --follow` show the same view.
 */
export type Phase = 'uploading' | 'queued' | 'planning' | 'importing' | 'mirroring' | 'summarizing';

export interface ProgressSnapshot {
  readonly phase: Phase;
  /** Bytes of the local file(s) sent to the bucket so far. */
  readonly upload?: { readonly loaded: number; readonly total: number };
  /** Waiting for an earlier import into the same table (the workflow's WaitForTable loop). */
  readonly queue?: { readonly reason: string | null; readonly waitSeconds: number };
  /**
   * Preflight's plan: the chunks cut so far from the objects' sizes (no byte is scanned: a lane finds its own first
   * record), the bytes they cover, and whether the plan is complete (many objects may take several invocations).
   */
  readonly plan?: {
    readonly size: number;
    readonly chunks: number;
    readonly complete: boolean;
  };
  /** Chunks imported (done) of all chunks; failed and running where the source knows them. */
  readonly chunks?: {
    readonly done: number;
    readonly total: number;
    readonly running?: number;
    readonly failed?: number;
  };
  /** A mirror's step: segments scanned, parts compared or parts deleted (done of total), and the keys so far. */
  readonly mirror?: { readonly step: string; readonly done: number; readonly total: number; readonly keys: number };
  /** Rows handled so far (written or rejected) and how many of them were rejected. */
  readonly rows?: { readonly rows: number; readonly rejected: number };
  /** Rows per second since the import phase began; null while unknown. */
  readonly rate?: number | null;
  /** Seconds left at that rate; null while unknown. */
  readonly etaSeconds?: number | null;
}

/** The rows the whole import will handle, estimated from a known rows-per-byte over the object's data bytes. */
export function estimateTotalRows(dataBytes: number, sample: { rows: number; bytes: number } | null): number | null {
  if (!sample || sample.rows <= 0 || sample.bytes <= 0) return null;
  return Math.round((dataBytes * sample.rows) / sample.bytes);
}

/** A rate over less time than this is noise: 50 rows 3 ms after the start would read as 16,667 rows/s. */
export const MIN_RATE_SECONDS = 1;

/**
 * Rows per second since `since`, and the seconds left for `totalRows` at that rate. Both null until
 * there is something to divide: rows done and time passed (a rate from a few rows in a few ms says nothing).
 */
export function rateAndEta(rows: number, sinceMs: number | null, nowMs: number, totalRows: number | null) {
  const seconds = sinceMs === null ? 0 : (nowMs - sinceMs) / 1000;
  if (rows <= 0 || seconds < MIN_RATE_SECONDS) return { rate: null, etaSeconds: null };
  const rate = rows / seconds;
  const etaSeconds = totalRows === null ? null : Math.max(0, (totalRows - rows) / rate);
  return { rate, etaSeconds };
}
