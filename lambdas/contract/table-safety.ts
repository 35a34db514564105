/**
 * What DescribeContinuousBackups says of a table's point-in-time recovery
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeContinuousBackups.html:
 * ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus, ENABLED or DISABLED).
 * `UNSUPPORTED`: the server does not know the operation (an emulator that keeps no backups answers UnknownOperationException),
 * so nothing can be restored: treated as off, as its answer says.
 */
export type PointInTimeRecovery = 'ENABLED' | 'DISABLED' | 'UNSUPPORTED';

/**
 * Preflight's safety check of the target table before an import that can destroy data (lambdas/table-checks/table-safety-check.ts):
 * in the preflight output (PlanningState.safety), so the console shows it. Absent for a mode that never replaces
 * (BackupRequirement `never`: `insert`).
 */
export interface TableSafety {
  readonly pointInTimeRecovery: PointInTimeRecovery;
  /**
   * The table held at least one item before the import (one Scan with Limit 1). Null when not asked: for
   * `delete`, and whenever point-in-time recovery is on.
   */
  readonly holdsItems: boolean | null;
  /** What could be lost, in words, or null when nothing is at risk. */
  readonly warning: string | null;
}

/**
 * When preflight checks a write mode's target table before the import (lambdas/table-checks/table-safety-check.ts), as each
 * mode's entry says (lambdas/write/write-modes.ts):
 * - `never`: the mode never replaces or removes data (`insert`); no check, and no TableSafety in the output.
 * - `always`: it removes data (`delete`); with point-in-time recovery off it is refused (BackupRequiredError) unless
 *   the request says `allowWithoutBackup` or is a dry run.
 * - `when-table-holds-items`: it changes what is there (`put`, `update`); with point-in-time recovery off and items in
 *   the table, the warning says what cannot be restored (`atRisk`).
 */
export type BackupRequirement =
  | { readonly check: 'never' }
  | { readonly check: 'always' }
  | { readonly check: 'when-table-holds-items'; readonly atRisk: string };
