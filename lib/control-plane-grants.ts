import { Arn, ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { acknowledge, wildcardResourceFinding } from './nag-acknowledgments.js';

/**
 * What a Distributed Map needs of its own state machine: start child executions, describe and stop them, and
 * redrive the Map Run's (https://docs.aws.amazon.com/step-functions/latest/dg/iam-policies-eg-dist-map.html).
 * The same statements CDK's own DistributedMap adds, in a separate policy as CDK does: the machine's role
 * cannot name the machine in its default policy, which the machine depends on (a cycle).
 */
export function grantDistributedMap(stateMachine: sfn.StateMachine, mapLabel: string): void {
  const policy = new iam.Policy(stateMachine, 'DistributedMapPolicy');
  stateMachine.role.attachInlinePolicy(policy);
  stateMachine.grantStartExecution(policy);
  stateMachine.grantExecution(policy, 'states:DescribeExecution', 'states:StopExecution');
  const redrivable = labelledExecutionsArn(stateMachine, mapLabel);
  iam.Grant.addToPrincipal({ grantee: policy, actions: ['states:RedriveExecution'], resourceArns: [redrivable] });
  acknowledge(
    policy,
    wildcardResourceFinding(policy, executionsArn(stateMachine, '')),
    'Distributed Map child executions of this one state machine, whose ids Step Functions makes up at run time',
  );
  acknowledge(
    policy,
    wildcardResourceFinding(policy, redrivable),
    "the Map Run child executions of this one state machine's ImportChunks Map, whose ids are made at run time",
  );
}

/** `arn:…:execution:<machine name>/<label>:*`: the child executions of the Map Runs of the Map labelled so. */
function labelledExecutionsArn(stateMachine: sfn.StateMachine, label: string): string {
  return executionsArn(stateMachine, `/${label}`);
}

/** `arn:…:execution:<machine name><suffix>:*`, as `grantExecution` writes it for an empty suffix. */
function executionsArn(stateMachine: sfn.StateMachine, suffix: string): string {
  const name = Arn.split(stateMachine.stateMachineArn, ArnFormat.COLON_RESOURCE_NAME).resourceName;
  return (
    Stack.of(stateMachine).formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${name}${suffix}`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    }) + ':*'
  );
}

/**
 * What preflight's control-plane calls need (lambdas/admission/lambda-concurrency.ts), only when the import function
 * has no reservation: with one, preflight reads it from its configuration and asks the Lambda API nothing
 * (lambdas/environment/deploy-time-concurrency.ts). Without, GetFunctionConcurrency on the import function and
 * GetAccountSettings (the lanes all imports share). Which imports run is the ledger's to say (a DynamoDB table).
 */
export function grantConcurrencyReads(
  preflight: lambda.Function,
  importer: lambda.Function,
  importHasReservation: boolean,
): void {
  if (importHasReservation) return;
  iam.Grant.addToPrincipal({
    grantee: preflight,
    actions: ['lambda:GetFunctionConcurrency'],
    resourceArns: [importer.functionArn],
  });
  // GetAccountSettings has no resource type: "*" is the only Resource it can be granted on
  // (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awslambda.html).
  iam.Grant.addToPrincipal({ grantee: preflight, actions: ['lambda:GetAccountSettings'], resourceArns: ['*'] });
  acknowledge(
    preflight.role!,
    'AwsSolutions-IAM5[Resource::*]',
    'lambda:GetAccountSettings (read the account concurrency) supports no resource-level permission; it is the only * grant',
  );
}
