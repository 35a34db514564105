import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import {
  SETTINGS,
  readSettings,
  resolveSettings,
  settingsEnvironment,
  type SettingName,
} from '../../../lambdas/environment/settings.js';
import { S3DdbImportStack } from '../../../lib/s3-ddb-import-stack.js';

/** Every function's environment variables in a synthesized stack with a reservation and warm throughput allowed. */
function deployedVariables(): Set<string> {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new S3DdbImportStack(app, 'Settings', { tableNames: ['ngrams'], importReservedConcurrency: 20 });
  const resources = Object.values(Template.fromStack(stack).toJSON().Resources) as {
    Type: string;
    Properties: { Environment?: { Variables?: Record<string, unknown> } };
  }[];
  const functions = resources.filter((r) => r.Type === 'AWS::Lambda::Function');
  return new Set(functions.flatMap((fn) => Object.keys(fn.Properties.Environment?.Variables ?? {})));
}

/** Variables a function's environment holds for Node itself, not for the settings table. */
const NOT_SETTINGS = new Set(['NODE_OPTIONS', 'AWS_NODEJS_CONNECTION_REUSE_ENABLED']);

describe('the settings table', () => {
  it('declares every variable the construct sets on the functions: none is read by hand', () => {
    const declared = new Set(Object.values(SETTINGS).map((setting) => setting.variable));
    const undeclared = [...deployedVariables()].filter((name) => !NOT_SETTINGS.has(name) && !declared.has(name));
    expect(undeclared).toEqual([]);
  });

  it('reads each variable as declared, inside Lambda, and reads the stack-only ones nowhere else', () => {
    const env = {
      REJECTS_PREFIX: ' out/rejects ',
      ALLOWED_TABLES: 'a, b,,',
      IMPORT_MEMORY_MB: '3008',
      IMPORT_RESERVED_CONCURRENCY: '12',
      BUCKET_NAME: 'data',
      WARM_THROUGHPUT_ALLOWED: 'true',
    };
    expect(readSettings({ ...env, AWS_LAMBDA_FUNCTION_NAME: 'f' })).toEqual({
      rejectsPrefix: 'out/rejects',
      allowedTables: ['a', 'b'],
      importMemoryMb: 3008,
      importReservedConcurrency: 12,
      bucketName: 'data',
      warmThroughputAllowed: true,
      emitMetrics: true,
    });
    // A developer's shell: the stack's bucket, reservation and warm-throughput switch are not read.
    expect(readSettings(env)).toEqual({
      rejectsPrefix: 'out/rejects',
      allowedTables: ['a', 'b'],
      importMemoryMb: 3008,
    });
  });

  it('resolves what is left out to the declared default, and keeps a null given on purpose', () => {
    const resolved = resolveSettings({ bucketKmsKeyArn: null, ledgerTable: 'mine' });
    for (const name of Object.keys(SETTINGS) as SettingName[]) {
      if (name === 'ledgerTable') expect(resolved[name]).toBe('mine');
      else expect(resolved[name], name).toEqual(SETTINGS[name].default);
    }
  });

  it('writes the variables a deployment sets from values, read back the same', () => {
    const values = { ledgerTable: 'imports-ledger', allowedTables: ['a', 'b'], importMemoryMb: 3008 };
    const env = settingsEnvironment({ ...values, bucketName: null, emitMetrics: true });
    expect(env).toEqual({ LEDGER_TABLE: 'imports-ledger', ALLOWED_TABLES: 'a,b', IMPORT_MEMORY_MB: '3008' });
    expect(readSettings(env)).toEqual(values);
  });
});
