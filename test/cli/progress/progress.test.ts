import { describe as group, expect, it } from 'vitest';
import { createProgressPrinter } from '../../../cli/local-run/progress-printer.js';
import { colorAllowed, createProgressRenderer, describe, duration } from '../../../cli/progress/renderer.js';
import type { ProgressSnapshot } from '../../../cli/progress/snapshot.js';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import { capture } from '../../support/cloud-clients.js';

const importing: ProgressSnapshot = {
  phase: 'importing',
  chunks: { done: 1, total: 4 },
  rows: { rows: 60_020, rejected: 20 },
  rate: 2000.67,
  etaSeconds: 19.98,
};

group('the progress view', () => {
  it.each<[string, ProgressSnapshot, string]>([
    [
      'upload',
      { phase: 'uploading', upload: { loaded: 5_242_880, total: 10_485_760 } },
      'uploading: 50% of 10485760 bytes',
    ],
    [
      "queue (local's line, word for word)",
      { phase: 'queued', queue: { reason: "waiting: t's 40 lanes are held by 3 running import(s)", waitSeconds: 10 } },
      "queued: waiting: t's 40 lanes are held by 3 running import(s), asking again in 10 s",
    ],
    [
      // Chunks are cut from the objects' sizes: no byte scan, so no percent of bytes scanned.
      "plan (local's line, word for word)",
      { phase: 'planning', plan: { size: 3, chunks: 2, complete: false } },
      'planning: 2 chunks of 3 bytes so far',
    ],
    [
      "a mirror's step: segments scanned (or parts compared, deleted) of all, and its keys so far",
      { phase: 'mirroring', mirror: { step: 'scanning table', done: 3, total: 4, keys: 105 } },
      'mirroring: scanning table 3/4 segments, 105 keys',
    ],
    [
      "import: local's line, then rows/s and the ETA",
      importing,
      'importing: 1/4 chunks, 60020 rows, 20 rejected, 2001 rows/s, ETA 20 s',
    ],
    [
      'failed chunks',
      { phase: 'importing', chunks: { done: 1, total: 4, failed: 2 }, rows: { rows: 5, rejected: 0 } },
      'importing: 1/4 chunks, 2 failed, 5 rows, 0 rejected',
    ],
    [
      'summarizing (no ETA)',
      { ...importing, phase: 'summarizing' },
      'summarizing: 1/4 chunks, 60020 rows, 20 rejected, 2001 rows/s',
    ],
  ])('says the %s in one plain line', (_case, snapshot, line) => {
    expect(describe(snapshot)).toBe(line);
  });

  it.each([
    [42, '42 s'],
    [185, '3m05s'],
    [7620, '2h07m'],
  ])('writes %d seconds as %s', (seconds, text) => {
    expect(duration(seconds)).toBe(text);
  });

  it('prints plain lines without escape codes when stderr is not a terminal, at most one per 2 s unless the phase changes', () => {
    let clock = 0;
    const { output, err, written } = capture(false);
    const renderer = createProgressRenderer({ ...output, now: () => clock });
    renderer.render({ phase: 'planning', plan: { size: 10, chunks: 0, complete: false } });
    clock = 1000;
    renderer.render({ phase: 'planning', plan: { size: 10, chunks: 1, complete: false } }); // too soon: skipped
    renderer.render({ phase: 'planning', plan: { size: 10, chunks: 2, complete: true } }); // the plan's end: shown
    renderer.render(importing); // a new phase: shown
    clock = 2500;
    renderer.render({ ...importing, rows: { rows: 70_000, rejected: 20 } }); // 1.5 s later: skipped
    clock = 3000;
    renderer.render({ ...importing, rows: { rows: 80_000, rejected: 20 } }); // 2 s later: shown
    renderer.done();
    expect(err).toEqual([
      'planning: 0 chunks of 10 bytes so far',
      'planning: 2 chunks of 10 bytes',
      'importing: 1/4 chunks, 60020 rows, 20 rejected, 2001 rows/s, ETA 20 s',
      'importing: 1/4 chunks, 80000 rows, 20 rejected, 2001 rows/s, ETA 20 s',
    ]);
    expect(written).toEqual([]);
  });

  it('rewrites one line with a bar on a terminal, in colour unless NO_COLOR is set', () => {
    const { output, written, err } = capture(true);
    const renderer = createProgressRenderer({ ...output, color: colorAllowed(true, {}) });
    renderer.render(importing);
    renderer.done();
    // 60,020 rows of 60,020 + 2,000.67 x 19.98 s = 100,000: 60% of 20 cells = 12
    expect(written).toEqual([`\r\x1b[36m${'█'.repeat(12)}${'░'.repeat(8)}\x1b[0m ${describe(importing)}\x1b[K`, '\n']);
    expect(err).toEqual([]);
    expect(colorAllowed(true, { NO_COLOR: '1' })).toBe(false);
    expect(colorAllowed(true, { NO_COLOR: '' })).toBe(true); // only a non-empty NO_COLOR turns colour off (no-color.org)
    expect(colorAllowed(false, {})).toBe(false);
  });
});

group("local's progress (the runner's events through the same view)", () => {
  it('prints the lines it printed before, then rows/s and the ETA from the rows per byte of the chunks done', () => {
    let clock = 0;
    const { output, err } = capture(false);
    const printer = createProgressPrinter({ ...output, now: () => clock });
    const chunkList = [
      { object: 0, start: 10, end: 1010, line: 2 },
      { object: 0, start: 1010, end: 2010, line: 52 },
    ];
    const events: RunnerEvent[] = [
      {
        type: 'preflight',
        chunks: 2,
        chunkList,
        scanComplete: true,
        offset: 2010,
        size: 2010,
        queue: { waiting: false, reason: null, waitSeconds: 0, waitedSeconds: 0 },
        lanes: { configured: 40, granted: 40, reason: '' },
      },
      { type: 'chunk-start', chunkIndex: 0 },
      { type: 'chunk-start', chunkIndex: 1 },
    ];
    events.forEach(printer.onEvent);
    clock = 2000;
    // chunk 0 done: 50 rows in 1,000 bytes, so 100 rows in the 2,000 data bytes; 50 rows in 2 s = 25 rows/s; 50 left = 2 s
    printer.onEvent({ type: 'chunk-progress', chunkIndex: 0, done: true, rows: 50, written: 49, rejected: 1 });
    printer.done();
    expect(err).toEqual([
      'planning: 2 chunks of 2010 bytes',
      'importing: 1/2 chunks, 50 rows, 1 rejected, 25 rows/s, ETA 2 s',
    ]);
  });
});
