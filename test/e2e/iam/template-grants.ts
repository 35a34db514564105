import { TASK_FUNCTION_PLACEHOLDERS, type TaskStateName } from '../../../lib/workflow-tasks.js';
import type { ArnContext } from './call-permissions.js';

/** One action allowed on one resource pattern, as a function's policies in the template hold it. */
export interface Grant {
  readonly task: TaskStateName;
  readonly action: string;
  /** The Resource with every CloudFormation reference resolved (see ResolveContext). */
  readonly resource: string;
  /** `<policy logical id>#<statement index>`, for messages. */
  readonly where: string;
  /** A `StringEquals` condition's keys and values: the grant allows a call only when its request carries them. */
  readonly conditions?: Readonly<Record<string, string>>;
}

/** What the template's references stand for in the test account: physical names and ARNs by logical id. */
export interface ResolveContext extends ArnContext {
  /** `{ Ref: id }` of a resource. */
  readonly refs: Readonly<Record<string, string>>;
  /** `{ 'Fn::GetAtt': [id, 'Arn'] }` of a resource. */
  readonly arns: Readonly<Record<string, string>>;
}

type Json = Record<string, unknown>;
interface Statement {
  Effect: string;
  Action?: string | string[];
  Resource?: unknown;
  Condition?: unknown;
  NotAction?: unknown;
  NotResource?: unknown;
}

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/**
 * Resolves the intrinsics CDK writes into policy resources: Ref (pseudo parameters and resources),
 * Fn::GetAtt (Arn), Fn::Join and Fn::Select of Fn::Split. A resource the context does not name stays `<Id>` / `<Id.Attr>`, which matches
 * no recorded ARN (fine for grants no call uses, like a function's own log group); any other intrinsic throws.
 */
export function resolve(value: unknown, ctx: ResolveContext): string {
  if (typeof value === 'string') return value;
  const node = value as Json;
  if (typeof node.Ref === 'string') {
    const pseudo: Record<string, string> = {
      'AWS::Partition': ctx.partition,
      'AWS::Region': ctx.region,
      'AWS::AccountId': ctx.account,
      'AWS::URLSuffix': 'amazonaws.com',
    };
    return pseudo[node.Ref] ?? ctx.refs[node.Ref] ?? `<${node.Ref}>`;
  }
  if (Array.isArray(node['Fn::GetAtt'])) {
    const [id, attribute] = node['Fn::GetAtt'] as [string, string];
    return (attribute === 'Arn' ? ctx.arns[id] : undefined) ?? `<${id}.${attribute}>`;
  }
  if (Array.isArray(node['Fn::Join'])) {
    const [separator, parts] = node['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => resolve(part, ctx)).join(separator);
  }
  // CDK takes a state machine's name out of its ARN: { Fn::Select: [6, { Fn::Split: [':', { Ref }] }] }.
  if (Array.isArray(node['Fn::Select'])) {
    const [index, list] = node['Fn::Select'] as [number, Json];
    if (!Array.isArray(list['Fn::Split'])) throw new Error(`cannot resolve ${JSON.stringify(value)}`);
    const [separator, source] = list['Fn::Split'] as [string, unknown];
    return resolve(source, ctx).split(separator)[index] ?? `<${JSON.stringify(value)}>`;
  }
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
}

/** The logical id a `{ 'Fn::GetAtt': [id, 'Arn'] }` names. */
function getAttId(value: unknown, what: string): string {
  const getAtt = (value as Json | undefined)?.['Fn::GetAtt'];
  if (!Array.isArray(getAtt)) throw new Error(`${what} is not a Fn::GetAtt: ${JSON.stringify(value)}`);
  return getAtt[0] as string;
}

/**
 * Every Allow grant of each Task's function: Task state → `${...}` substitution of the state machine → function →
 * its role → the AWS::IAM::Policy resources attached to that role and the role's inline policies. A statement the
 * checks cannot evaluate exactly (Deny, Condition, NotAction, NotResource) or a managed policy throws.
 */
export function grantsByTask(template: { Resources: Record<string, Json> }, ctx: ResolveContext): Grant[] {
  const resources = Object.entries(template.Resources);
  const machines = resources.filter(([, r]) => r.Type === 'AWS::StepFunctions::StateMachine');
  if (machines.length !== 1) throw new Error(`expected one state machine, found ${machines.length}`);
  const substitutions = (machines[0][1].Properties as Json).DefinitionSubstitutions as Json;
  return (Object.keys(TASK_FUNCTION_PLACEHOLDERS) as TaskStateName[]).flatMap((task) => {
    const fnId = getAttId(substitutions[TASK_FUNCTION_PLACEHOLDERS[task]], `substitution for ${task}`);
    const roleId = getAttId((template.Resources[fnId].Properties as Json).Role, `role of ${fnId}`);
    const role = template.Resources[roleId].Properties as Json;
    if (role.ManagedPolicyArns) throw new Error(`${roleId} has managed policies, which these checks cannot read`);
    const attached = resources
      .filter(([, r]) => r.Type === 'AWS::IAM::Policy')
      .filter(([, r]) => JSON.stringify((r.Properties as Json).Roles).includes(JSON.stringify({ Ref: roleId })))
      .map(([id, r]) => [id, (r.Properties as Json).PolicyDocument] as const);
    const inline = asList((role.Policies ?? []) as Json[]).map(
      (p) => [`${roleId}.${p.PolicyName}`, p.PolicyDocument] as const,
    );
    return [...attached, ...inline].flatMap(([id, document]) =>
      ((document as Json).Statement as Statement[]).flatMap((s, index) =>
        statementGrants(task, `${id}#${index}`, s, ctx),
      ),
    );
  });
}

function statementGrants(task: TaskStateName, where: string, s: Statement, ctx: ResolveContext): Grant[] {
  const conditions = stringEquals(s.Condition);
  if (s.Effect !== 'Allow' || conditions === null || s.NotAction || s.NotResource || !s.Action || !s.Resource) {
    throw new Error(`${where}: only plain Allow statements can be checked, got ${JSON.stringify(s)}`);
  }
  return asList(s.Action).flatMap((action) =>
    asList(s.Resource).map((resource) => ({
      task,
      action,
      resource: resolve(resource, ctx),
      where,
      ...(conditions ? { conditions } : {}),
    })),
  );
}

/** A Condition of one `StringEquals` block of single string values (undefined: none; null: one not checkable). */
function stringEquals(condition: unknown): Record<string, string> | undefined | null {
  if (condition === undefined) return undefined;
  const { StringEquals: equals, ...others } = condition as Json;
  if (Object.keys(others).length > 0 || typeof equals !== 'object' || equals === null) return null;
  const values = Object.values(equals as Json);
  return values.every((v) => typeof v === 'string') ? (equals as Record<string, string>) : null;
}
