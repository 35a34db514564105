import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { DescribeExecutionCommand, ListExecutionsCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { ControlPlane, ExecutionRef, ImportConcurrency, RunningImport } from './control-plane.js';

/**
 * The control plane of a deployed stack. Each method makes only the calls the construct grants preflight:
 * states:ListExecutions on its own state machine, states:DescribeExecution on its executions,
 * lambda:GetFunctionConcurrency on the import function, and lambda:GetAccountSettings (an action with no
 * resource type, so it can only be granted on "*") when that function has no reserved concurrency.
 */
export class AwsControlPlane implements ControlPlane {
  constructor(
    readonly sfn: SFNClient,
    readonly lambda: LambdaClient,
    /** The import function's name or ARN (IMPORT_FUNCTION_NAME). */
    private readonly importFunctionName: string | null,
  ) {}

  /**
   * ListExecutions with a stateMachineArn lists that machine's own executions, not the child executions of
   * its Map Runs (those need mapRunArn: API_ListExecutions.html). Only the ones that started no later than
   * `self` are described for their input's table: with many uploads at once, each ask costs one
   * DescribeExecution per import ahead, not one per import running.
   */
  async runningImports(stateMachineArn: string, self: ExecutionRef): Promise<RunningImport[]> {
    const running: RunningImport[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.sfn.send(
        new ListExecutionsCommand({ stateMachineArn, statusFilter: 'RUNNING', nextToken }),
      );
      for (const execution of page.executions ?? []) {
        const startTime = (execution.startDate ?? new Date(0)).toISOString();
        const id = execution.executionArn ?? '';
        if (id === self.id || Date.parse(startTime) > Date.parse(self.startTime)) continue;
        const described = await this.sfn.send(new DescribeExecutionCommand({ executionArn: id }));
        running.push({ id, startTime, table: tableOf(described.input) });
      }
      nextToken = page.nextToken;
    } while (nextToken);
    return running;
  }

  async importConcurrency(): Promise<ImportConcurrency | null> {
    if (!this.importFunctionName) return null;
    const own = await this.lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: this.importFunctionName }));
    if (own.ReservedConcurrentExecutions !== undefined)
      return { reserved: own.ReservedConcurrentExecutions, unreserved: null };
    const account = await this.lambda.send(new GetAccountSettingsCommand({}));
    return { reserved: null, unreserved: account.AccountLimit?.UnreservedConcurrentExecutions ?? null };
  }
}

/** The `table` of an execution's input; null when the input is not a request (or not JSON). */
function tableOf(input: string | undefined): string | null {
  try {
    const { table } = JSON.parse(input ?? '') as { table?: unknown };
    return typeof table === 'string' ? table : null;
  } catch {
    return null;
  }
}
