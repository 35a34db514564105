import { PutObjectCommand } from '@aws-sdk/client-s3';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ensureNgramTable, s3, scanSorted, sortItems, stackOutputs } from '../aws.js';
import { cloudCli, jsonOut } from '../cli.js';
import { waitFor } from '../executions.js';
import { ngramArgs, ngramFileWithBadRows } from '../ngram-file.js';

/**
 * `rate`, `pause` and `resume` against the deployed ledger (the CLI finds it through the stack's LedgerTableName
 * output), on an import the write cap keeps running for tens of seconds at any machine speed.
 */
const KEY = 'live/ngrams.tsv';
const ROWS = 3_000;
/** Lanes read a pause within about 5 s (the pause command's help, cli/commands/live-commands.ts); two looks this far apart see a stopped import. */
const PAUSED_LOOK_MS = 6_000;

/**
 * A live command's --json without `rows`: the live count (issue 35) the lanes add at each lease renewal, present once
 * one has renewed (approximate: a retried invocation adds its rows again, so only its type is checked here).
 */
function settingsOf(run: Parameters<typeof jsonOut>[0]): Record<string, unknown> {
  const { rows, ...settings } = jsonOut(run) as Record<string, unknown>;
  if (rows !== undefined) expect(Number.isInteger(rows) && (rows as number) >= 0).toBe(true);
  return settings;
}

describe('rate, pause and resume of an import running in the deployed stack', () => {
  it('changes the rate, stops the writes while paused, and the resumed import lands every row', async () => {
    const table = 'live';
    await ensureNgramTable(table);
    const file = ngramFileWithBadRows(ROWS, 5);
    const { BucketName } = await stackOutputs();
    await s3.send(new PutObjectCommand({ Bucket: BucketName, Key: KEY, Body: file.text }));
    const start = await cloudCli([
      'start',
      `s3://${BucketName}/${KEY}`,
      ...ngramArgs(table),
      '--max-write-rate',
      '150',
      '--json',
    ]);
    expect(start.code, start.stderr).toBe(0);
    const { executionName: name } = jsonOut(start);
    const live = await waitFor('the import to hold lanes', async () => {
      const status = jsonOut(await cloudCli(['status', name, '--json']));
      return status.live ? status.live : undefined;
    });

    const rate = await cloudCli(['rate', name, '200', '--json']);
    expect(rate.code, rate.stderr).toBe(0);
    expect(settingsOf(rate)).toEqual({ execution: name, table, lanes: live.lanes, maxWriteRate: 200, paused: false });
    const pause = await cloudCli(['pause', name, '--json']);
    expect(settingsOf(pause)).toEqual({ execution: name, table, lanes: live.lanes, maxWriteRate: 200, paused: true });
    const held = await waitFor('the lanes to stop writing', async () => {
      const before = (await scanSorted(table)).length;
      await sleep(PAUSED_LOOK_MS);
      const after = (await scanSorted(table)).length;
      return before === after ? after : undefined;
    });
    expect(held).toBeLessThan(ROWS);
    expect(jsonOut(await cloudCli(['status', name, '--json']))).toMatchObject({ status: 'RUNNING' });
    const resume = await cloudCli(['resume', name, '--json']);
    expect(settingsOf(resume)).toEqual({ execution: name, table, lanes: live.lanes, maxWriteRate: 200, paused: false });

    const done = await cloudCli(['status', name, '--follow', '--poll-s', '1', '--json']);
    expect(done.code, done.stderr).toBe(2);
    expect(jsonOut(done)).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', written: ROWS, table });
    expect(await scanSorted(table)).toEqual(sortItems(file.items));
  });
});
