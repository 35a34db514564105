import { App, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ImportPipeline } from '../lib/import-pipeline.js';
import { cell } from './docs-interfaces.js';

/**
 * docs/reference/functions.md and grants.md from a synthesized template, never by hand: an `ImportPipeline` with its
 * defaults over one bucket and one table, as a user's stack holds it. What CDK renders (each function's settings and
 * environment, each role's policy statements) is what deploys, so a grant added in lib/ shows here.
 */
type Resource = { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> };
type Template = { Resources: Record<string, Resource> };

/** The template of the reference stack; bundling is skipped (the asset's hash is all it would change). */
export function referenceTemplate(): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true } });
  const stack = new Stack(app, 'Stack');
  new ImportPipeline(stack, 'Pipeline', {
    bucket: new s3.Bucket(stack, 'Bucket'),
    tables: [new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } })],
  });
  return app.synth().getStackByName('Stack').template as Template;
}

/** A resource's construct path without the stack and the L1 child: `Pipeline/ImportFunction`. */
function pathOf(template: Template, logicalId: string): string {
  const path = template.Resources[logicalId]?.Metadata?.['aws:cdk:path'];
  return typeof path === 'string' ? path.replace(/^Stack\//, '').replace(/\/(Resource|Default)$/, '') : logicalId;
}

/** A template value as text: `{ Ref: X }` → `<path>`, GetAtt → `<path>.Attr`, a Join joined, pseudo refs kept. */
function render(template: Template, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((v) => render(template, v)).join(', ');
  const object = value as Record<string, unknown>;
  if (typeof object.Ref === 'string') {
    return object.Ref.startsWith('AWS::') ? `\${${object.Ref}}` : `<${pathOf(template, object.Ref)}>`;
  }
  const getAtt = object['Fn::GetAtt'] as [string, string] | undefined;
  if (getAtt) return `<${pathOf(template, getAtt[0])}>.${getAtt[1]}`;
  const join = object['Fn::Join'] as [string, unknown[]] | undefined;
  if (join) return join[1].map((part) => render(template, part)).join(join[0]);
  const select = object['Fn::Select'] as [number, unknown] | undefined;
  if (select) return `select(${select[0]}, ${render(template, select[1])})`;
  const split = object['Fn::Split'] as [string, unknown] | undefined;
  if (split) return `split("${split[0]}", ${render(template, split[1])})`;
  return JSON.stringify(value);
}

const ofType = (template: Template, type: string) =>
  Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

/** Each function's runtime, memory, timeout and environment variables, as the template sets them. */
export function functionsReference(template: Template): string[] {
  return ofType(template, 'AWS::Lambda::Function').flatMap(([id, fn]) => {
    const p = fn.Properties ?? {};
    const variables = ((p.Environment as { Variables?: Record<string, unknown> })?.Variables ?? {}) as object;
    return [
      `## ${pathOf(template, id)}`,
      '',
      String(p.Description ?? ''),
      '',
      `Runtime \`${render(template, p.Runtime)}\` on \`${render(template, p.Architectures ?? 'x86_64')}\`, ` +
        `${p.MemorySize ?? 128} MB, timeout ${p.Timeout ?? 3} s` +
        (p.ReservedConcurrentExecutions === undefined
          ? '.'
          : `, reserved concurrency ${p.ReservedConcurrentExecutions}.`),
      '',
      '| environment variable | value |',
      '| --- | --- |',
      ...Object.entries(variables).map(([name, v]) => `| \`${name}\` | \`${cell(render(template, v))}\` |`),
      '',
    ];
  });
}

/** Each role's allowed actions and resources, over the IAM policies attached to it. */
export function grantsReference(template: Template): string[] {
  const byRole = new Map<string, string[]>();
  for (const [, policy] of ofType(template, 'AWS::IAM::Policy')) {
    const props = policy.Properties as { Roles: unknown[]; PolicyDocument: { Statement: Record<string, unknown>[] } };
    for (const role of props.Roles.map((r) => render(template, r))) {
      const rows = byRole.get(role) ?? [];
      for (const s of props.PolicyDocument.Statement) {
        const actions = [s.Action]
          .flat()
          .map((a) => `\`${a}\``)
          .join(', ');
        const resources = [s.Resource]
          .flat()
          .map((r) => `\`${cell(render(template, r))}\``)
          .join('<br>');
        rows.push(`| ${s.Effect} | ${actions} | ${resources} |`);
      }
      byRole.set(role, rows);
    }
  }
  return [...byRole.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([role, rows]) => [
      `## ${role.replace(/^<|>$/g, '')}`,
      '',
      '| effect | actions | resources |',
      '| --- | --- | --- |',
      ...rows,
      '',
    ]);
}
