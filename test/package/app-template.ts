import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import { handlerBundleFile } from '../../lib/bundle-settings.js';
import type { TaskStateName } from '../../lib/workflow-tasks.js';

/** What the README app was synthesized into, and the installed package it used. */
export interface SynthesizedApp {
  readonly cdkOut: string;
  readonly stack: string;
  readonly packageRoot: string;
  readonly handlers: Readonly<Record<TaskStateName, string>>;
}

type Resource = { Type: string; Properties: Record<string, unknown> };
type Statement = { Action: string | string[]; Resource: unknown };

/** The pipeline's functions by construct id (public contract), under the README's `new ImportPipeline(stack, 'Import')`. */
const FUNCTIONS: Record<string, TaskStateName> = {
  PreflightFunction: 'Preflight',
  ImportFunction: 'ImportChunk',
  SummarizeFunction: 'Summarize',
};

const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === type);

/** Each function runs its bundle from the package: the staged asset holds the package's files, byte for byte. */
async function expectPackageBundles(app: SynthesizedApp, resources: Record<string, Resource>): Promise<void> {
  for (const [id, task] of Object.entries(FUNCTIONS)) {
    const found = ofType(resources, 'AWS::Lambda::Function').filter(([logicalId]) =>
      logicalId.startsWith(`Import${id}`),
    );
    expect(found, id).toHaveLength(1);
    const props = (found[0] as [string, Resource])[1].Properties;
    expect(props, id).toMatchObject({ Handler: 'index.handler', Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    const hash = (props.Code as { S3Key: string }).S3Key.replace(/\.zip$/, '');
    const asset = join(app.cdkOut, `asset.${hash}`);
    const bundle = join(app.packageRoot, dirname(handlerBundleFile(app.handlers[task])));
    expect((await readdir(asset)).sort(), id).toEqual(['index.js', 'index.js.map', 'package.json']);
    for (const name of ['index.js', 'index.js.map', 'package.json']) {
      const same = (await readFile(join(asset, name))).equals(await readFile(join(bundle, name)));
      expect(same, `${id} ${name}`).toBe(true);
    }
    expect(JSON.parse(await readFile(join(asset, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
  }
}

/** DynamoDB grants name the app's imported table (and the pipeline's own ledger) only, never `*` or another table. */
function expectTableGrants(resources: Record<string, Resource>): void {
  const tables = ofType(resources, 'AWS::DynamoDB::Table').map(([logicalId]) => logicalId);
  const orders = tables.filter((id) => id.startsWith('Orders'));
  const ledger = tables.filter((id) => id.startsWith('ImportLedger'));
  const other = tables.filter((id) => id.startsWith('NotImported'));
  expect([orders.length, ledger.length, other.length]).toEqual([1, 1, 1]);
  const statements = ofType(resources, 'AWS::IAM::Policy').flatMap(
    ([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement,
  );
  const dynamodb = statements.filter((s) => [s.Action].flat().some((action) => action.startsWith('dynamodb:')));
  const named = new Set<string>();
  for (const statement of dynamodb) {
    const resourcesText = JSON.stringify([statement.Resource].flat());
    expect([statement.Resource].flat()).not.toContain('*');
    const tablesNamed = tables.filter((id) => resourcesText.includes(`"${id}"`));
    expect(tablesNamed.length, resourcesText).toBeGreaterThan(0);
    tablesNamed.forEach((id) => named.add(id));
  }
  expect([...named].sort()).toEqual([...orders, ...ledger].sort());
  const writesOrders = dynamodb.some(
    (s) =>
      [s.Action].flat().includes('dynamodb:BatchWriteItem') && JSON.stringify(s.Resource).includes(`"${orders[0]}"`),
  );
  expect(writesOrders).toBe(true);
  expect(JSON.stringify(statements)).not.toContain(`"${other[0]}"`);
}

/** The workflow is the package's file, byte for byte, its Task placeholders bound to the pipeline's functions. */
async function expectPackageWorkflow(app: SynthesizedApp, resources: Record<string, Resource>): Promise<void> {
  const machines = ofType(resources, 'AWS::StepFunctions::StateMachine');
  expect(machines).toHaveLength(1);
  const props = (machines[0] as [string, Resource])[1].Properties;
  // DefinitionBody.fromFile stages the file as an asset; the template points at it.
  const key = (props.DefinitionS3Location as { Key: string }).Key;
  const staged = await readFile(join(app.cdkOut, `asset.${key}`));
  expect(staged.equals(await readFile(join(app.packageRoot, 'statemachine/import.asl.json')))).toBe(true);
  const functionArn = (id: string) => ({ 'Fn::GetAtt': [expect.stringMatching(new RegExp(`^Import${id}`)), 'Arn'] });
  expect(props.DefinitionSubstitutions).toMatchObject({
    PreflightFunctionArn: functionArn('PreflightFunction'),
    ImportFunctionArn: functionArn('ImportFunction'),
    SummarizeFunctionArn: functionArn('SummarizeFunction'),
  });
}

/** The README app's template: the package's workflow and bundles, grants on its table only, the CLI's outputs. */
export async function checkSynthesizedApp(app: SynthesizedApp): Promise<void> {
  const json = JSON.parse(await readFile(join(app.cdkOut, `${app.stack}.template.json`), 'utf8'));
  const template = Template.fromJSON(json);
  const resources = json.Resources as Record<string, Resource>;
  await expectPackageWorkflow(app, resources);
  await expectPackageBundles(app, resources);
  expectTableGrants(resources);
  for (const output of ['StateMachineArn', 'BucketName', 'LedgerTableName']) template.hasOutput(output, {});
}
