import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Deliberate exceptions to cdk-nag's AwsSolutions rules, recorded with CDK's own `Validations` API (what
 * cdk-nag 3 reads), so this library needs no cdk-nag at run time. Each acknowledgment names one finding
 * as exactly as cdk-nag reports it, so a new finding of the same rule still fails the checks.
 */

/** The managed policy NodejsFunction's default role carries; cdk-nag's IAM4 finding names it like this. */
export const LAMBDA_BASIC_EXECUTION_POLICY =
  'arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole';

/**
 * Acknowledges one finding on `scope` and everything below it. aws-cdk-lib before the version npm's peer range
 * names (2.263, the newest on Maven Central when the Java app was first tested) splits a rule id on every `::`
 * and refuses the IAM5 ids whose resource holds an intrinsic (`{"Fn::Select":...}`): there the acknowledgment
 * cannot be recorded, so it is skipped and a cdk-nag check would report that finding; the pipeline is the same.
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  try {
    Validations.of(scope).acknowledge({ id, reason });
  } catch (error) {
    if (!String(error).includes("The '::' delimiter is reserved")) throw error;
  }
}

/** The IAM5 finding id for a wildcard action, e.g. `AwsSolutions-IAM5[Action::s3:List*]`. */
export function wildcardActionFinding(action: string): string {
  return `AwsSolutions-IAM5[Action::${action}]`;
}

/**
 * The IAM5 finding id for a wildcard resource, e.g. `AwsSolutions-IAM5[Resource::<Bucket83908E77.Arn>/*]`.
 * cdk-nag writes the resolved ARN with `Ref` as `<Id>`, `Fn::GetAtt` as `<Id.Attr>`, `Fn::Join` joined.
 */
export function wildcardResourceFinding(scope: IConstruct, arn: string): string {
  return `AwsSolutions-IAM5[Resource::${flatten(Stack.of(scope).resolve(arn))}]`;
}

function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const node = value as Record<string, unknown>;
    if (Array.isArray(node['Fn::Join'])) {
      const [separator, parts] = node['Fn::Join'] as [string, unknown[]];
      return parts.map(flatten).join(separator);
    }
    if (Array.isArray(node['Fn::GetAtt'])) return `<${(node['Fn::GetAtt'] as unknown[]).map(flatten).join('.')}>`;
    if (node.Ref !== undefined) return `<${flatten(node.Ref)}>`;
  }
  return JSON.stringify(value);
}

/** `fn.grantInvoke(role)` also allows the function's versions and aliases, `<function arn>:*`. */
export function acknowledgeGrantInvoke(role: IConstruct, functionArn: string): void {
  acknowledge(
    role,
    wildcardResourceFinding(role, `${functionArn}:*`),
    'grantInvoke covers versions and aliases of this one pipeline function, which the workflow invokes',
  );
}
