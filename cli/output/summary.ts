import type { ImportSummary } from '../../lambdas/contract/workflow-payloads.js';

/** Exit codes are public contract: 0 every row landed, 2 some rows were rejected, 1 the import failed. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_REJECTS = 2;

/** Where a command writes: results on stdout, progress and errors on stderr. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** stderr is a terminal: progress may rewrite its line. */
  readonly interactive: boolean;
  /** Progress may use colour (a terminal, and NO_COLOR unset). @default false */
  readonly color?: boolean;
  /** The terminal's width, when stderr is one. */
  readonly columns?: number;
}

/** What the summary line and the --json object say besides the execution output. */
export interface SummaryContext {
  readonly json: boolean;
  /** The import's time: `local` counts from the moment its servers are ready (upload and workflow). */
  readonly durationMs: number;
  /** How long `local`'s servers took to get ready (a first run builds MinIO); cloud commands have none. */
  readonly servicesReadyMs?: number;
  /** Where the rejected rows were copied, when some were. */
  readonly rejectsDir: string | null;
  /** The deployed execution (cloud commands only; `local` prints no such field). */
  readonly executionArn?: string;
}

/** The exit code of a finished import. */
export function exitCodeOf(summary: ImportSummary): number {
  return summary.rejected > 0 ? EXIT_REJECTS : EXIT_OK;
}

/** Prints the finished import: one line, or with --json one JSON object as the last stdout line. */
export function printSummary(summary: ImportSummary, context: SummaryContext, output: Output): void {
  const { durationMs, servicesReadyMs, rejectsDir, executionArn } = context;
  if (context.json) {
    const { status, rows, written, rejected, chunks, rejectsKey, table } = summary;
    const extra = {
      ...(executionArn ? { executionArn } : {}),
      ...(servicesReadyMs === undefined ? {} : { servicesReadyMs }),
    };
    output.out(
      JSON.stringify({ status, rows, written, rejected, chunks, durationMs, rejectsKey, rejectsDir, table, ...extra }),
    );
    return;
  }
  const rate = summary.written / Math.max(durationMs / 1000, 0.001);
  const servers = servicesReadyMs === undefined ? '' : `; local servers ready in ${seconds(servicesReadyMs)}`;
  output.out(
    `${summary.status}: ${summary.rows} rows, ${summary.written} written, ${summary.rejected} rejected, ` +
      `${summary.chunks} chunks into ${summary.table} in ${seconds(durationMs)} (${Math.round(rate)} items/s)${servers}`,
  );
  if (rejectsDir) output.out(`rejected rows (line, byte offset, reason, record): ${rejectsDir}`);
}

/** Prints a failed import: the error on stderr, and with --json a FAILED object on stdout. Returns EXIT_FAILED. */
export function printFailure(
  error: { name: string; message: string },
  context: Omit<SummaryContext, 'rejectsDir'>,
  output: Output,
): number {
  output.err(`import failed: ${error.name}: ${error.message}`);
  if (context.json) {
    const arn = context.executionArn ? { executionArn: context.executionArn } : {};
    output.out(
      JSON.stringify({
        status: 'FAILED',
        error: error.name,
        message: error.message,
        durationMs: context.durationMs,
        ...arn,
      }),
    );
  }
  return EXIT_FAILED;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
