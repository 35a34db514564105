import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanAll, uniqueName } from '../harness.js';
import { comparable } from './normalize-item.js';
import { runCli, lastJsonLine } from '../cli-process.js';

const KEYS = ['--pk', 'PK', '--sk', 'SK', '--create-table', '--json'];

async function writeOrders(text: string): Promise<{ cwd: string; file: string }> {
  const cwd = await mkdtemp(join(tmpdir(), 'cli-attrs-'));
  const file = `${uniqueName('orders')}.csv`; // unique: the CLI uploads to one shared local bucket
  await writeFile(join(cwd, file), text);
  return { cwd, file };
}

describe('s3-ddb-import local --attr --exclude', () => {
  it('writes single-table items with keys from templates, a constant, a TTL, the folded columns left out', async () => {
    const { cwd, file } = await writeOrders(
      'user_id,order_id,expires,note\n42,991,2030-01-02T03:04:05Z,first\n42,992,1893553446,\n7,991,,third\n',
    );
    const table = uniqueName('cli');
    const attrs = ['--attr', 'PK=USER#{user_id}', '--attr', 'SK=ORDER#{order_id}', '--attr', 'entity=Order'];
    const run = await runCli(
      ['local', file, '--table', table, ...KEYS, ...attrs, '--exclude', 'user_id,order_id', '--types', 'expires=TTL'],
      { cwd },
    );

    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'SUCCEEDED', rows: 3, written: 3, rejected: 0 });
    const order = (pk: string, sk: string, rest: object) => ({
      PK: { S: pk },
      SK: { S: sk },
      entity: { S: 'Order' },
      ...rest,
    });
    expect(comparable(await scanAll(table), ['PK', 'SK'])).toEqual(
      comparable(
        [
          order('USER#42', 'ORDER#991', { expires: { N: '1893553445' }, note: { S: 'first' } }),
          order('USER#42', 'ORDER#992', { expires: { N: '1893553446' } }),
          order('USER#7', 'ORDER#991', { note: { S: 'third' } }), // an empty TTL field is omitted, as any empty field
        ],
        ['PK', 'SK'],
      ),
    );
  });

  it('fails when a template names a column the file lacks: exit 1, nothing written', async () => {
    const { cwd, file } = await writeOrders('user_id,order_id\n42,991\n');
    const table = uniqueName('cli');
    const run = await runCli(
      ['local', file, '--table', table, ...KEYS, '--attr', 'PK=USER#{user}', '--attr', 'SK={order_id}'],
      { cwd },
    );
    expect(run.code).toBe(1);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'InvalidRequestError' });
    expect(run.stderr).toContain('attributes.PK: {user} is not among the columns [user_id, order_id]');
    expect(await scanAll(table)).toEqual([]);
  });
});
