import { Annotations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { PipelineSettings } from './pipeline-settings.js';

/** The id of the warning below, for Annotations.of(scope).acknowledgeWarning(). */
export const UNRESERVED_IMPORTS_WARNING = 's3-ddb-import:importConcurrencyUnreserved';

/**
 * Without a reservation, preflight gives each import up to half the account's unreserved concurrency: two stacks in
 * one account and Region can take all of it between them, and every other function is throttled
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html). Synth says so.
 */
export function warnUnreservedImports(scope: Construct, settings: PipelineSettings): void {
  if (settings.reserved !== undefined) return;
  Annotations.of(scope).addWarningV2(
    UNRESERVED_IMPORTS_WARNING,
    'importReservedConcurrency is unset: each import may take up to half of the account unreserved Lambda ' +
      'concurrency, and two such stacks in one account and Region can take all of it; reserve the lanes ' +
      '(importReservedConcurrency) or acknowledge this warning',
  );
}
