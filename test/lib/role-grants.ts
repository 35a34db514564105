import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';

interface Statement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
}

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** The logical id CloudFormation knows `construct` by (its default child for an L2). */
export function logicalId(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId((construct.node.defaultChild ?? construct) as CfnElement);
}

/**
 * Action to the resources allowed for it, over every statement of the AWS::IAM::Policy resources attached to
 * `role` in `template`. Throws on a statement that is not a plain Allow: the maps compare allowed grants only.
 */
export function grantsOf(template: Template, role: IConstruct | undefined): Record<string, unknown[]> {
  const roleRef = JSON.stringify([{ Ref: logicalId(role!) }]);
  const grants: Record<string, unknown[]> = {};
  for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
    if (JSON.stringify(policy.Properties.Roles) !== roleRef) continue;
    for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
      if (statement.Effect !== 'Allow') throw new Error(`not an Allow statement: ${JSON.stringify(statement)}`);
      for (const action of asList(statement.Action)) (grants[action] ??= []).push(...asList(statement.Resource));
    }
  }
  return grants;
}

/**
 * An `Fn::Join` of JSON text (a state machine definition, a dashboard body) parsed, each `{ Ref: id }` /
 * `{ Fn::GetAtt: [id, attr] }` part rendered as the text `<id>` / `<id.attr>` so the whole parses.
 */
export function parseJoinedJson<T>(join: { 'Fn::Join': [string, unknown[]] }): T {
  const [, parts] = join['Fn::Join'];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const ref = part as { Ref?: string; 'Fn::GetAtt'?: string[] };
      return ref.Ref ? `<${ref.Ref}>` : `<${ref['Fn::GetAtt']!.join('.')}>`;
    })
    .join('');
  return JSON.parse(text) as T;
}
