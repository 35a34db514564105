import { Fn, Stack, Tokenization } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { settingsEnvironment, type SettingText, type SettingValues } from '../../lambdas/environment/settings.js';
import type { PipelineFunction } from '../pipeline-function.js';

/** CDK's text for the settings' values: tables, buckets and reservations may be tokens resolved at deploy. */
function cdkSettingText(scope: Construct): SettingText {
  return {
    list: (items) => Fn.join(',', [...items]),
    json: (value) => Stack.of(scope).toJsonString(value),
    number: (value) => Tokenization.stringifyNumber(value),
  };
}

/**
 * The functions' environment for `values`, named by setting (lambdas/environment/settings.ts SETTINGS): the table
 * declares each variable, so the construct names none, and a new setting is a row there plus its value here.
 * @example
 * pipelineEnvironment(stack, { ledgerTable: table.tableName }); // { LEDGER_TABLE: '${Token[...]}' }
 */
export function pipelineEnvironment(scope: Construct, values: Partial<SettingValues>): Record<string, string> {
  return settingsEnvironment(values, cdkSettingText(scope));
}

/** Adds the variables of `values` to each function's environment (settings known once the functions exist). */
export function addSettings(functions: readonly PipelineFunction[], values: Partial<SettingValues>): void {
  for (const fn of functions) {
    for (const [name, value] of Object.entries(pipelineEnvironment(fn, values))) fn.addEnvironment(name, value);
  }
}
