import { BackupRequiredError } from '../contract/errors.js';
import type { ResolvedRequest, WriteMode } from '../contract/import-request.js';
import type { PointInTimeRecovery, TableSafety } from '../contract/table-safety.js';

/** The two reads the safety check makes (table-safety-io.ts binds them to DynamoDB). */
export interface TableSafetyIo {
  /** One DescribeContinuousBackups. */
  pointInTimeRecovery(table: string): Promise<PointInTimeRecovery>;
  /** One Scan with Limit 1: does the table hold any item now? */
  tableHoldsItems(table: string): Promise<boolean>;
}

/** The request fields the check reads. */
export type SafetyRequest = Pick<ResolvedRequest, 'table' | 'mode' | 'dryRun' | 'allowWithoutBackup'>;

/**
 * Checks the target table before an import that can destroy data, before any write: `delete` always, `put` and
 * `update` when the table already holds items (they replace or change what is there); `insert` never replaces, so
 * it is not checked (null). With point-in-time recovery on, nothing is at risk. With it off, a `delete` import is
 * refused (BackupRequiredError) unless the request says `allowWithoutBackup` or is a dry run (which writes nothing
 * and reports the refusal as its warning); the other cases return a warning.
 *
 * Whether the table holds items is asked with one Scan of Limit 1 rather than read from DescribeTable's ItemCount,
 * which "DynamoDB updates approximately every six hours"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html): a table filled an
 * hour ago would read as empty, which is the very case to warn about. The Scan reads at most one item: half a read
 * unit up to 4 KB, eventually consistent. It is made only when point-in-time recovery is off.
 */
export async function checkTableSafety(request: SafetyRequest, io: TableSafetyIo): Promise<TableSafety | null> {
  const { table, mode } = request;
  if (mode === 'insert') return null;
  const pointInTimeRecovery = await io.pointInTimeRecovery(table);
  if (pointInTimeRecovery === 'ENABLED') return { pointInTimeRecovery, holdsItems: null, warning: null };
  if (mode === 'delete') {
    if (!request.allowWithoutBackup && !request.dryRun) {
      throw new BackupRequiredError(refusal(table, pointInTimeRecovery));
    }
    const warning =
      request.dryRun && !request.allowWithoutBackup
        ? refusal(table, pointInTimeRecovery)
        : deleting(table, pointInTimeRecovery);
    return { pointInTimeRecovery, holdsItems: null, warning };
  }
  const holdsItems = await io.tableHoldsItems(table);
  return {
    pointInTimeRecovery,
    holdsItems,
    warning: holdsItems ? overwriting(table, mode, pointInTimeRecovery) : null,
  };
}

/** Why the table has no backup to restore from, in words. */
export function pitrOff(table: string, pitr: PointInTimeRecovery): string {
  return pitr === 'UNSUPPORTED'
    ? `table ${JSON.stringify(table)} has no point-in-time recovery (this DynamoDB does not know DescribeContinuousBackups)`
    : `table ${JSON.stringify(table)} has point-in-time recovery off`;
}

/**
 * The refusal of a `delete` import: what is wrong and the ways on (turning point-in-time recovery on only where the
 * server has it: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContinuousBackups.html).
 */
export function refusal(table: string, pitr: PointInTimeRecovery): string {
  const allow = 'send "allowWithoutBackup": true (CLI: --allow-without-backup) to delete anyway';
  const turnOn =
    `Turn point-in-time recovery on (aws dynamodb update-continuous-backups --table-name ${table} ` +
    `--point-in-time-recovery-specification PointInTimeRecoveryEnabled=true), or ${allow}`;
  const ways = pitr === 'UNSUPPORTED' ? `It keeps no backups: ${allow}` : turnOn;
  return `${pitrOff(table, pitr)}: a delete import cannot be undone, so it does not start. ${ways}`;
}

function deleting(table: string, pitr: PointInTimeRecovery): string {
  return `${pitrOff(table, pitr)}, and allowWithoutBackup is set: the items this import deletes cannot be restored`;
}

function overwriting(table: string, mode: WriteMode, pitr: PointInTimeRecovery): string {
  const what =
    mode === 'update'
      ? 'the attributes this import sets replace their old values, which cannot be restored'
      : 'items with the keys this import writes are replaced, and cannot be restored';
  return `${pitrOff(table, pitr)} and already holds items: ${what}`;
}
