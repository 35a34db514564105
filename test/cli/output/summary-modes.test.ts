import { describe, expect, it } from 'vitest';
import type { ImportSummary } from '../../../lambdas/contract/workflow-payloads.js';
import type { WriteMode } from '../../../lambdas/contract/import-request.js';
import { printSummary } from '../../../cli/output/summary.js';
import { mirrorLine } from '../../../cli/output/mirror-line.js';

/** 10 rows, 1 rejected: each mode shows its own counts (its table entry's `reports`), the first one's items/s. */
function lineOf(mode: WriteMode): string {
  const summary = { status: 'SUCCEEDED', rows: 10, written: 6, skipped: 3, deleted: 4, rejected: 1, chunks: 2 };
  const lines: string[] = [];
  const output = { out: (line: string) => lines.push(line), err: () => {}, interactive: false };
  printSummary(
    { ...summary, table: 'T', mode, dryRun: false, writeUnits: 0 } as ImportSummary,
    {
      json: false,
      durationMs: 1234,
      rejectsDir: null,
    },
    output,
  );
  return lines[0];
}

describe('the summary line of each write mode', () => {
  it.each<[WriteMode, string]>([
    // written 6 in 1.234 s: 5 items/s
    ['put', 'SUCCEEDED: 10 rows, 6 written, 3 skipped, 1 rejected, 2 chunks into T (put) in 1.2 s (5 items/s)'],
    ['insert', 'SUCCEEDED: 10 rows, 6 written, 3 skipped, 1 rejected, 2 chunks into T (insert) in 1.2 s (5 items/s)'],
    // update has no skipped
    ['update', 'SUCCEEDED: 10 rows, 6 written, 1 rejected, 2 chunks into T (update) in 1.2 s (5 items/s)'],
    // delete counts deleted: 4 in 1.234 s, 3 items/s
    ['delete', 'SUCCEEDED: 10 rows, 4 deleted, 1 rejected, 2 chunks into T (delete) in 1.2 s (3 items/s)'],
  ])('%s', (mode, line) => {
    expect(lineOf(mode)).toBe(line);
  });
});

describe('a mirror in the summary line and --json', () => {
  const mirror = {
    inScope: 105,
    notInFile: 5,
    deleted: 5,
    maxDeletePercent: 10,
    scope: { partitionKeyPrefix: 'A#' },
    deletesKey: 'r/exec/diff/',
    refusal: null,
  };

  it('says what the mirror found and deleted', () => {
    expect(mirrorLine({ dryRun: false, mirror } as unknown as ImportSummary)).toBe(
      '; mirror: 5 of 105 items in scope (partition key begins with "A#") not in the file, 5 deleted',
    );
  });

  it('says a dry run would delete them, and where its diff lies', () => {
    expect(mirrorLine({ dryRun: true, mirror: { ...mirror, deleted: 0 } } as unknown as ImportSummary)).toBe(
      '; mirror: 5 of 105 items in scope (partition key begins with "A#") not in the file, would be deleted (diff: r/exec/diff/)',
    );
  });

  it('adds nothing for an import that is no mirror', () => {
    expect(mirrorLine({ dryRun: false } as unknown as ImportSummary)).toBe('');
  });
});
