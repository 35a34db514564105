import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WRITE_MODES } from '../../../lambdas/contract/import-request.js';
import { dynamodb, ensureNgramTable, scanSorted } from '../aws.js';
import { cloudCli, jsonOut, workDir } from '../cli.js';

/** 400 1-gram items; the file keeps those whose year is not 7 modulo 20: 20 dropped, 5% (under the default 10%). */
const YEARS = Array.from({ length: 400 }, (_, i) => 1600 + i);
const dropped = (year: number) => year % 20 === 7;
const item = (year: number, count: number) => ({
  ngram: { S: 'mirror' },
  year: { N: String(year) },
  match_count: { N: String(count) },
  volume_count: { N: '1' },
});

/**
 * A mirror through `start` on the deployed stack: the MirrorScan and MirrorParts functions run with their deployed
 * roles (the engine enforces IAM), so a missing grant fails the execution. Skipped until `sync` is a built-in mode
 * (issue 36's sync lands on main): a mirror runs only with it.
 */
describe.skipIf(!(WRITE_MODES as readonly string[]).includes('sync'))(
  'start --mirror through the deployed stack',
  () => {
    it('deletes the items whose keys the file dropped and keeps the rest, item by item', async () => {
      const table = 'mirrored';
      await ensureNgramTable(table);
      for (let i = 0; i < YEARS.length; i += 25) {
        const batch = YEARS.slice(i, i + 25).map((year) => ({ PutRequest: { Item: item(year, 1) } }));
        await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: batch } }));
      }
      const kept = YEARS.filter((year) => !dropped(year));
      const dir = workDir();
      const rows = kept.map((year) => `mirror\t${year}\t2\t1`);
      writeFileSync(join(dir, 'mirror.tsv'), `ngram\tyear\tmatch_count\tvolume_count\n${rows.join('\n')}\n`);

      const run = await cloudCli([
        'start',
        join(dir, 'mirror.tsv'),
        '--table',
        table,
        '--types',
        'match_count=N,volume_count=N',
        '--mode',
        'sync',
        '--mirror',
        '--allow-without-backup',
        '--follow',
        '--poll-s',
        '1',
        '--json',
      ]);

      expect(run.code, run.stderr).toBe(0);
      expect(jsonOut(run)).toMatchObject({ status: 'SUCCEEDED', deleted: 20, mirror: { inScope: 400, notInFile: 20 } });
      expect(await scanSorted(table)).toEqual(kept.map((year) => item(year, 2)));
    });
  },
);
