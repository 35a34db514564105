import { mirrorLine } from './mirror-line.js';
import { NO_IMPORT_COUNTS, type ImportSummary } from '../../lambdas/contract/workflow-payloads.js';
import { writeModeEntry } from '../../lambdas/write/write-modes.js';

import { EXIT_OK, EXIT_REJECTS } from './cli-error.js';

export { EXIT_FAILED, EXIT_OK, EXIT_REJECTS } from './cli-error.js';

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
  /** How long `local`'s servers took to get ready (a first run installs the engine); cloud commands have none. */
  readonly servicesReadyMs?: number;
  /** Where the rejected rows were copied, when some were. */
  readonly rejectsDir: string | null;
  /** Where a dry run's diff files were copied, when it wrote some. @default null */
  readonly diffDir?: string | null;
  /** The deployed execution (cloud commands only; `local` prints no such field). */
  readonly executionArn?: string;
}

/** The exit code of a finished import. */
export function exitCodeOf(summary: ImportSummary): number {
  return summary.rejected > 0 ? EXIT_REJECTS : EXIT_OK;
}

/**
 * Every count and flag of a summary with the value it reads as when a recorded summary lacks it: an execution's
 * output is a record (`status` and `start --follow` read it back) that may predate a field, so the reader starts from
 * these and every field is set, without a case per field. A new count is a name in NO_IMPORT_COUNTS.
 */
const SUMMARY_ZEROS = { ...NO_IMPORT_COUNTS, mode: 'put', dryRun: false } as const satisfies Partial<ImportSummary>;

/** Prints the finished import: one line, or with --json one JSON object as the last stdout line. */
export function printSummary(recorded: ImportSummary, context: SummaryContext, output: Output): void {
  const summary: ImportSummary = { ...SUMMARY_ZEROS, ...recorded };
  const { durationMs, servicesReadyMs, rejectsDir, executionArn } = context;
  const diff = summary.diffKey ? { diffKey: summary.diffKey, diffDir: context.diffDir ?? null } : {};
  if (context.json) {
    const { status, rows, written, rejected, chunks, rejectsKey, table } = summary;
    const extra = {
      ...(executionArn ? { executionArn } : {}),
      ...(servicesReadyMs === undefined ? {} : { servicesReadyMs }),
    };
    const { skipped, deleted, added, changed, unchanged, mode, dryRun, writeUnits } = summary;
    const modes = { skipped, deleted, added, changed, unchanged, mode, dryRun, writeUnits };
    output.out(
      JSON.stringify({
        status,
        rows,
        written,
        rejected,
        ...modes,
        chunks,
        durationMs,
        rejectsKey,
        rejectsDir,
        ...diff,
        table,
        ...(summary.mirror ? { mirror: summary.mirror } : {}),
        ...extra,
      }),
    );
    return;
  }
  const servers = servicesReadyMs === undefined ? '' : `; local servers ready in ${seconds(servicesReadyMs)}`;
  output.out(`${summaryLine(summary, durationMs)}${mirrorLine(summary)}${servers}`);
  if (rejectsDir) output.out(`rejected rows (line, byte offset, reason, record): ${rejectsDir}`);
  if (context.diffDir) output.out(`differences (JSON Lines: op, key, attributes): ${context.diffDir}`);
}

/**
 * `SUCCEEDED: 1000 rows, 990 written, 8 skipped, 2 rejected, 3 chunks into T (insert) in 1.2 s (825 items/s)`: it
 * starts as the first releases' line did, so what reads `SUCCEEDED: N rows, N written` still does; `update` has no
 * skipped, `delete` counts deleted, `sync` added, changed and unchanged. Its items/s counts the rows the mode's counts
 * name, skipped aside. A dry run starts with DRY RUN and says what it would have done.
 */
function summaryLine(summary: ImportSummary, durationMs: number): string {
  const { mode } = summary;
  const where = `${summary.chunks} chunks into ${summary.table} (${mode}${summary.dryRun ? ', dry run' : ''})`;
  const timed = (n: number) =>
    `in ${seconds(durationMs)} (${Math.round(n / Math.max(durationMs / 1000, 0.001))} items/s)`;
  const entry = writeModeEntry(mode);
  if (summary.dryRun && !entry.dryRun) {
    const sent = summary.rows - summary.rejected;
    return (
      `DRY RUN, nothing written: ${summary.rows} rows, ${sent} would be sent using ${summary.writeUnits} write ` +
      `units, ${summary.rejected} rejected, ${where} ${timed(summary.rows)}`
    );
  }
  const counted = entry.reports.filter((name) => name !== 'skipped');
  const counts = entry.reports.map((name) => `${summary[name]} ${name}`).join(', ');
  const done = counted.reduce((sum, name) => sum + summary[name], 0);
  if (summary.dryRun) {
    // A mode that reads the table first (sync) says what it found: what it would add, change and leave.
    return (
      `DRY RUN, nothing written: ${summary.rows} rows, ${counts} (would use ${summary.writeUnits} write units), ` +
      `${summary.rejected} rejected, ${where} ${timed(done)}`
    );
  }
  return `${summary.status}: ${summary.rows} rows, ${counts}, ${summary.rejected} rejected, ${where} ${timed(done)}`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
