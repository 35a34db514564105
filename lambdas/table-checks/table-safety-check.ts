import { BackupRequiredError } from '../contract/errors.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { PointInTimeRecovery, TableSafety } from '../contract/table-safety.js';
import { WRITE_MODE_TABLE, writeModeEntry, type WriteModeTable } from '../write/write-modes.js';

/** The two reads the safety check makes (table-safety-io.ts binds them to DynamoDB). */
export interface TableSafetyIo {
  /** One DescribeContinuousBackups. */
  pointInTimeRecovery(table: string): Promise<PointInTimeRecovery>;
  /** One Scan with Limit 1: does the table hold any item now? */
  tableHoldsItems(table: string): Promise<boolean>;
}

/** The request fields the check reads. */
export type SafetyRequest = Pick<ResolvedRequest, 'table' | 'mode' | 'dryRun' | 'allowWithoutBackup'> &
  Partial<Pick<ResolvedRequest, 'mirror'>>;

/** A mirror deletes the items the file dropped: it needs a backup exactly as `delete` does, whatever its mode. */
const MIRROR_BACKUP = { check: 'always' } as const;

/**
 * Checks the target table before an import that can destroy data, before any write, as the mode's entry says
 * (contract BackupRequirement): `always` (`delete`), `when-table-holds-items` (`put`, `update`: they replace or
 * change what is there), `never` (`insert` never replaces: not checked, null). With point-in-time recovery on,
 * nothing is at risk. With it off, an `always` import is refused (BackupRequiredError) unless the request says
 * `allowWithoutBackup` or is a dry run (which writes nothing and reports the refusal as its warning); the other
 * cases return a warning naming what the mode puts at risk.
 *
 * Whether the table holds items is asked with one Scan of Limit 1 rather than read from DescribeTable's ItemCount,
 * which "DynamoDB updates approximately every six hours"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html): a table filled an
 * hour ago would read as empty, which is the very case to warn about. The Scan reads at most one item: half a read
 * unit up to 4 KB, eventually consistent. It is made only when point-in-time recovery is off.
 */
export async function checkTableSafety(
  request: SafetyRequest,
  io: TableSafetyIo,
  modes: WriteModeTable = WRITE_MODE_TABLE,
): Promise<TableSafety | null> {
  const { table } = request;
  const backup = request.mirror ? MIRROR_BACKUP : writeModeEntry(request.mode, modes).backup;
  if (backup.check === 'never') return null;
  const pointInTimeRecovery = await io.pointInTimeRecovery(table);
  if (pointInTimeRecovery === 'ENABLED') return { pointInTimeRecovery, holdsItems: null, warning: null };
  if (backup.check === 'always') {
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
    warning: holdsItems ? `${pitrOff(table, pointInTimeRecovery)} and already holds items: ${backup.atRisk}` : null,
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
