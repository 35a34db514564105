import { describe as group, expect, it } from 'vitest';
import { createProgressRenderer, describe, describeLive } from '../../../cli/progress/renderer.js';
import type { ProgressSnapshot } from '../../../cli/progress/snapshot.js';
import { capture } from '../../support/cloud-clients.js';

const NAME = 'ngrams-1gram-20250314-092653-3fa9c1';
const live = { execution: NAME, table: 'ngrams', lanes: 8, maxWriteRate: 1500, paused: false };
const importing: ProgressSnapshot = {
  phase: 'importing',
  chunks: { done: 1, total: 4 },
  rows: { rows: 60_020, rejected: 20 },
  rate: 2000,
  etaSeconds: 20,
};
const PROGRESS = 'importing: 1/4 chunks, 60020 rows, 20 rejected, 2000 rows/s, ETA 20 s';

group("status's live line (the settings `rate`, `pause` and `resume` change)", () => {
  it.each([
    [live, 'live: 8 lanes, at most 1500 items/s'],
    [{ ...live, maxWriteRate: 0 }, 'live: 8 lanes, uncapped'],
    [{ ...live, paused: true }, 'live: paused, 8 lanes holding their checkpoints (at most 1500 items/s on resume)'],
  ])('%j', (settings, line) => {
    expect(describeLive(settings)).toBe(line);
  });

  it('follows the progress line when the ledger has the import, and is absent when it does not', () => {
    expect(describe({ ...importing, live })).toBe(`${PROGRESS}\nlive: 8 lanes, at most 1500 items/s`);
    expect(describe(importing)).toBe(PROGRESS);
  });

  it('shows a pause and a resume in a log at once, not 2 s later', () => {
    const { output, err } = capture(false);
    const renderer = createProgressRenderer({ ...output, now: () => 0 });
    renderer.render({ ...importing, live });
    renderer.render({ ...importing, live }); // same step, too soon: skipped
    renderer.render({ ...importing, live: { ...live, paused: true } });
    renderer.render({ ...importing, live });
    expect(err).toEqual([
      `${PROGRESS}\nlive: 8 lanes, at most 1500 items/s`,
      `${PROGRESS}\nlive: paused, 8 lanes holding their checkpoints (at most 1500 items/s on resume)`,
      `${PROGRESS}\nlive: 8 lanes, at most 1500 items/s`,
    ]);
  });

  it('joins the two lines on a terminal, whose one line is rewritten in place', () => {
    const { output, written } = capture(true);
    const renderer = createProgressRenderer({ ...output, columns: 200 });
    renderer.render({ ...importing, live });
    // 60,020 rows of 60,020 + 2,000 x 20 s = 100,020: 60% of 20 cells = 12
    const bar = `${'█'.repeat(12)}${'░'.repeat(8)}`;
    expect(written).toEqual([`\r${bar} ${PROGRESS}; live: 8 lanes, at most 1500 items/s\x1b[K`]);
  });
});
