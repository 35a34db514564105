import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import {
  CloudFormationClient,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import type { EngineTarget } from './engine-env.js';
import { LocalDeployError } from './local-deploy-error.js';

/** A CloudFormation client of the engine; with TLS it trusts the engine's CA (this process may not, see engineEnv). */
export function engineCloudFormation(target: EngineTarget): CloudFormationClient {
  return new CloudFormationClient({
    endpoint: target.endpoint,
    region: target.region,
    credentials: target.credentials,
    ...(target.caFile ? { requestHandler: { httpsAgent: new Agent({ ca: readFileSync(target.caFile) }) } } : {}),
  });
}

/** The stack's outputs by key (DescribeStacks' Stacks[0].Outputs). */
export async function stackOutputs(
  cloudformation: CloudFormationClient,
  stack: string,
): Promise<Record<string, string>> {
  const { Stacks } = await cloudformation.send(new DescribeStacksCommand({ StackName: stack }));
  return Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue ?? '']));
}

/**
 * The first resource the engine refused since `since`, from the stack's events (newest first, as
 * DescribeStackEvents returns them): a `*_FAILED` event of a resource, not of the stack, with a reason.
 */
export function firstRefusal(events: readonly StackEvent[], stack: string, since: Date): StackEvent | undefined {
  return events
    .filter((e) => (e.Timestamp?.getTime() ?? 0) >= since.getTime())
    .filter((e) => e.ResourceStatus?.endsWith('_FAILED') && e.LogicalResourceId !== stack && e.ResourceStatusReason)
    .at(-1);
}

/**
 * Why `cdk deploy` failed, as one LocalDeployError: the first resource the engine refused and its reason, or, when
 * no event names one (the stack never started), the CDK CLI's last line.
 */
export async function explainDeployFailure(
  cloudformation: CloudFormationClient,
  stack: string,
  since: Date,
  failure: Error,
): Promise<LocalDeployError> {
  const events = await cloudformation
    .send(new DescribeStackEventsCommand({ StackName: stack }))
    .then((answer) => answer.StackEvents ?? [])
    .catch(() => [] as StackEvent[]);
  const refused = firstRefusal(events, stack, since);
  if (!refused) return new LocalDeployError(`cdk deploy failed: ${lastLine(failure.message)}`, { cause: failure });
  const reason = (refused.ResourceStatusReason as string).replace(`${refused.ResourceType} `, '');
  return new LocalDeployError(
    `the engine refused resource ${refused.LogicalResourceId} (${refused.ResourceType}): ${reason}`,
    {
      cause: failure,
      hint: 'the engine models less than AWS: docs/guides/rehearse-locally.md lists what local deploy edits for it',
    },
  );
}

/** The last line of a tool's output that says something (the CDK CLI ends with the error). */
export const lastLine = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at '))
    .at(-1) ?? text;
