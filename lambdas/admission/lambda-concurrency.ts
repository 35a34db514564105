import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { ConcurrencySource, ImportConcurrency } from './import-concurrency.js';

/** How long an answer about the Lambda concurrency is kept. */
export const CONCURRENCY_TTL_MS = 60_000;

/**
 * The control plane of a deployed stack. It makes only the calls the construct grants preflight:
 * lambda:GetFunctionConcurrency on the import function, and lambda:GetAccountSettings (an action with no
 * resource type, so it can only be granted on "*") when that function has no reserved concurrency.
 */
export class LambdaConcurrency implements ConcurrencySource {
  private cached: { readonly at: number; readonly answer: Promise<ImportConcurrency | null> } | undefined;

  constructor(
    readonly lambda: LambdaClient,
    /** The import function's name or ARN (IMPORT_FUNCTION_NAME). */
    private readonly importFunctionName: string | null,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Asked on every admission, and a waiting import asks again and again: the answer is kept for a minute per
   * container, so a burst of waiting imports does not become a burst of Lambda control-plane calls (throttled per
   * account). A reservation changed meanwhile is seen within that minute.
   */
  importConcurrency(): Promise<ImportConcurrency | null> {
    const now = this.now();
    if (!this.cached || now - this.cached.at >= CONCURRENCY_TTL_MS) {
      const answer = this.askLambda();
      answer.catch(() => (this.cached = undefined)); // a failed ask is not kept
      this.cached = { at: now, answer };
    }
    return this.cached.answer;
  }

  private async askLambda(): Promise<ImportConcurrency | null> {
    if (!this.importFunctionName) return null;
    const own = await this.lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: this.importFunctionName }));
    if (own.ReservedConcurrentExecutions !== undefined)
      return { reserved: own.ReservedConcurrentExecutions, unreserved: null };
    const account = await this.lambda.send(new GetAccountSettingsCommand({}));
    return { reserved: null, unreserved: account.AccountLimit?.UnreservedConcurrentExecutions ?? null };
  }
}
