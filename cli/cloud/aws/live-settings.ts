import { ImportLedger, type LiveSettings } from '../../../lambdas/admission/ledger.js';
import type { CloudClients } from './clients.js';
import { readStackOutputs } from './stack-outputs.js';

/**
 * A deployed import's live settings (`rate`, `pause`, `resume`), for status to show; null when the ledger does not
 * have them (the import holds no lanes, or its stack has no ledger).
 */
export type LiveSettingsReader = (execution: {
  readonly stateMachineArn?: string;
  readonly name?: string;
}) => Promise<LiveSettings | null>;

/**
 * Reads live settings from the ledger of `stackName` (its LedgerTableName output, read once). It says nothing
 * (null) when there is no stack to read (only a state machine ARN was given), when the stack has no ledger (an
 * older stack), when the execution is another stack's (its state machine is not this stack's), or when the read
 * fails (e.g. no dynamodb:GetItem): the live line is extra, status itself must not fail for it.
 */
export function stackLiveSettings(clients: CloudClients, stackName: string | null): LiveSettingsReader {
  let stack: Promise<{ stateMachineArn: string; ledger: ImportLedger } | null> | undefined;
  const readStack = async (name: string) => {
    const { stateMachineArn, ledgerTableName } = await readStackOutputs(clients.cloudformation, name);
    return ledgerTableName ? { stateMachineArn, ledger: new ImportLedger(clients.dynamodb, ledgerTableName) } : null;
  };
  return async (execution) => {
    if (!stackName || !execution.name) return null;
    stack ??= readStack(stackName).catch(() => null);
    const found = await stack;
    if (!found || found.stateMachineArn !== execution.stateMachineArn) return null;
    return found.ledger.read(execution.name).catch(() => null);
  };
}
