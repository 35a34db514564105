import { describe, expect, it } from 'vitest';
import { BackupRequiredError } from '../../../lambdas/contract/errors.js';
import type { WriteMode } from '../../../lambdas/contract/import-request.js';
import type { PointInTimeRecovery } from '../../../lambdas/contract/table-safety.js';
import {
  checkTableSafety,
  type SafetyRequest,
  type TableSafetyIo,
} from '../../../lambdas/table-checks/table-safety-check.js';

/** A table as the two reads see it, and the reads made, in order. */
function fakeTable(pitr: PointInTimeRecovery, holdsItems: boolean) {
  const calls: string[] = [];
  const io: TableSafetyIo = {
    pointInTimeRecovery: async (table) => (calls.push(`DescribeContinuousBackups ${table}`), pitr),
    tableHoldsItems: async (table) => (calls.push(`Scan ${table}`), holdsItems),
  };
  return { io, calls };
}

const request = (mode: WriteMode, more: Partial<SafetyRequest> = {}): SafetyRequest => ({
  table: 'orders',
  mode,
  dryRun: false,
  ...more,
});

describe('checkTableSafety', () => {
  it('asks nothing for insert: it never replaces an item', async () => {
    const { io, calls } = fakeTable('DISABLED', true);
    expect(await checkTableSafety(request('insert'), io)).toBeNull();
    expect(calls).toEqual([]);
  });

  it.each<WriteMode>(['put', 'update', 'delete'])(
    '%s: point-in-time recovery on, nothing at risk, no Scan',
    async (mode) => {
      const { io, calls } = fakeTable('ENABLED', true);
      expect(await checkTableSafety(request(mode), io)).toEqual({
        pointInTimeRecovery: 'ENABLED',
        holdsItems: null,
        warning: null,
      });
      expect(calls).toEqual(['DescribeContinuousBackups orders']);
    },
  );

  it.each<[WriteMode, boolean, string | null]>([
    // An empty table loses nothing to a put or an update.
    ['put', false, null],
    ['update', false, null],
    ['put', true, 'items with the keys this import writes are replaced, and cannot be restored'],
    ['update', true, 'the attributes this import sets replace their old values, which cannot be restored'],
  ])('%s with point-in-time recovery off, table holds items: %s', async (mode, holdsItems, risk) => {
    const { io, calls } = fakeTable('DISABLED', holdsItems);
    const safety = await checkTableSafety(request(mode), io);
    expect(safety).toEqual({
      pointInTimeRecovery: 'DISABLED',
      holdsItems,
      warning: risk && `table "orders" has point-in-time recovery off and already holds items: ${risk}`,
    });
    expect(calls).toEqual(['DescribeContinuousBackups orders', 'Scan orders']);
  });

  it.each<[PointInTimeRecovery, string]>([
    [
      'DISABLED',
      'table "orders" has point-in-time recovery off: a delete import cannot be undone, so it does not start. Turn ' +
        'point-in-time recovery on (aws dynamodb update-continuous-backups --table-name orders ' +
        '--point-in-time-recovery-specification PointInTimeRecoveryEnabled=true), or send "allowWithoutBackup": true ' +
        '(CLI: --allow-without-backup) to delete anyway',
    ],
    // A server without backups: nothing to turn on, so only the one way on.
    [
      'UNSUPPORTED',
      'table "orders" has no point-in-time recovery (this DynamoDB does not know ' +
        'DescribeContinuousBackups): a delete import cannot be undone, so it does not start. It keeps no backups: ' +
        'send "allowWithoutBackup": true (CLI: --allow-without-backup) to delete anyway',
    ],
  ])(
    'fails when a delete meets point-in-time recovery %s without allowWithoutBackup, naming the ways on',
    async (pitr, message) => {
      const { io, calls } = fakeTable(pitr, true);
      const outcome = checkTableSafety(request('delete'), io);
      await expect(outcome).rejects.toThrow(BackupRequiredError);
      await expect(outcome).rejects.toMatchObject({ name: 'BackupRequiredError', message });
      expect(calls).toEqual(['DescribeContinuousBackups orders']);
    },
  );

  it('lets a delete with allowWithoutBackup start, with a warning and no Scan', async () => {
    const { io, calls } = fakeTable('DISABLED', true);
    expect(await checkTableSafety(request('delete', { allowWithoutBackup: true }), io)).toEqual({
      pointInTimeRecovery: 'DISABLED',
      holdsItems: null,
      warning:
        'table "orders" has point-in-time recovery off, and allowWithoutBackup is set: the items this import deletes cannot be restored',
    });
    expect(calls).toEqual(['DescribeContinuousBackups orders']);
  });

  it('lets a dry run of a delete go on (it writes nothing), its warning the refusal the real run would meet', async () => {
    const { io } = fakeTable('DISABLED', true);
    const safety = await checkTableSafety(request('delete', { dryRun: true }), io);
    expect(safety?.warning).toMatch(/a delete import cannot be undone, so it does not start/);
  });
});
