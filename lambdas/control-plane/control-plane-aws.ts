import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { ControlPlane, ImportConcurrency } from './control-plane.js';

/**
 * The control plane of a deployed stack. It makes only the calls the construct grants preflight:
 * lambda:GetFunctionConcurrency on the import function, and lambda:GetAccountSettings (an action with no
 * resource type, so it can only be granted on "*") when that function has no reserved concurrency.
 */
export class AwsControlPlane implements ControlPlane {
  constructor(
    readonly lambda: LambdaClient,
    /** The import function's name or ARN (IMPORT_FUNCTION_NAME). */
    private readonly importFunctionName: string | null,
  ) {}

  async importConcurrency(): Promise<ImportConcurrency | null> {
    if (!this.importFunctionName) return null;
    const own = await this.lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: this.importFunctionName }));
    if (own.ReservedConcurrentExecutions !== undefined)
      return { reserved: own.ReservedConcurrentExecutions, unreserved: null };
    const account = await this.lambda.send(new GetAccountSettingsCommand({}));
    return { reserved: null, unreserved: account.AccountLimit?.UnreservedConcurrentExecutions ?? null };
  }
}
