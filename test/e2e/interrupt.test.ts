import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { importKey } from '../../lambdas/admission/ledger-items.js';
import { DEFAULT_LEDGER_TABLE } from '../../lambdas/environment/config.js';
import { CLI } from './cli-process.js';
import { dynamodb, uniqueName } from './harness.js';

/** Whether the ledger holds an item for the import (it does while the import holds lanes). */
async function holdsLanes(execution: string): Promise<boolean> {
  const key = importKey(execution);
  const { Item } = await dynamodb.send(
    new GetItemCommand({ TableName: DEFAULT_LEDGER_TABLE, Key: key, ConsistentRead: true }),
  );
  return Item !== undefined;
}

describe('Ctrl-C on local, against servers that outlive it', () => {
  it('releases its lanes, says in one line what may have landed, and exits 130', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'interrupt-'));
    await writeFile(join(cwd, 'ids.csv'), `id\n${Array.from({ length: 200 }, (_, i) => `row-${i}`).join('\n')}\n`);
    // 200 rows at 2 items/s: it holds its lanes for 100 s unless interrupted. The test run's engine outlives it.
    const table = uniqueName('interrupt');
    const args = ['local', 'ids.csv', '--table', table, '--create-table', '--pk', 'id', '--max-write-rate', '2'];
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: process.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = once(child, 'exit');
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    let execution = '';
    try {
      for (let waited = 0; !execution || !(await holdsLanes(execution)); waited += 100) {
        expect(waited).toBeLessThan(60_000);
        execution = /execution ([0-9a-f-]{36})/.exec(stderr)?.[1] ?? '';
        await sleep(100);
      }
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toEqual([130, null]);
    expect(stderr.trim().split('\n').at(-1)).toBe(
      `interrupted: its lanes are released; rows read before Ctrl-C may have landed in "${table}"; ` +
        'running it again is safe (a put replaces the item of its key)',
    );
    expect(await holdsLanes(execution)).toBe(false);
  });
});
