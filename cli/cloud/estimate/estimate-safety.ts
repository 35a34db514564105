import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ResolvedRequest } from '../../../lambdas/contract/import-request.js';
import type { PointInTimeRecovery } from '../../../lambdas/contract/table-safety.js';
import { checkTableSafety, pitrOff } from '../../../lambdas/table-checks/table-safety-check.js';
import { tableSafetyIo } from '../../../lambdas/table-checks/table-safety-io.js';
import { writeModeEntry } from '../../../lambdas/write/write-modes.js';

/** What `estimate` says of the table's point-in-time recovery: its status (null: could not be read) and warnings. */
export interface EstimateSafety {
  readonly pointInTimeRecovery: PointInTimeRecovery | null;
  /** Why the status is unknown (the CLI's identity may lack dynamodb:DescribeContinuousBackups), else null. */
  readonly unknownBecause: string | null;
  readonly warnings: readonly string[];
}

/**
 * One DescribeContinuousBackups (and, for a put or update with it off, one Scan of Limit 1): preflight's own check
 * (lambdas/table-checks/table-safety-check.ts), run as a dry run so a delete is reported rather than refused. With
 * point-in-time recovery off, estimate always says so (it prices every mode, delete included), and adds the
 * request's own warning when its mode is at risk.
 */
export async function readEstimateSafety(
  dynamodb: DynamoDBClient,
  request: Pick<ResolvedRequest, 'table' | 'mode' | 'allowWithoutBackup'>,
): Promise<EstimateSafety> {
  const io = tableSafetyIo(dynamodb);
  let pitr: PointInTimeRecovery;
  try {
    pitr = await io.pointInTimeRecovery(request.table);
  } catch (error) {
    const { name, message } = error as Error;
    return { pointInTimeRecovery: null, unknownBecause: `${name}: ${message}`, warnings: [] };
  }
  if (pitr === 'ENABLED') return { pointInTimeRecovery: pitr, unknownBecause: null, warnings: [] };
  const known = { ...io, pointInTimeRecovery: async () => pitr };
  const safety = await checkTableSafety({ ...request, mode: request.mode, dryRun: true }, known);
  const general =
    `${pitrOff(request.table, pitr)}: a delete import refuses to start without allowWithoutBackup, ` +
    'and nothing a delete removes or a put or update replaces can be restored';
  // An `always` mode's own warning is the refusal the general line already states.
  const ownWarning = safety?.warning && writeModeEntry(request.mode).backup.check !== 'always';
  const warnings = [general, ...(ownWarning ? [safety.warning] : [])];
  return { pointInTimeRecovery: pitr, unknownBecause: null, warnings };
}
