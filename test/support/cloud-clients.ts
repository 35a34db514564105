import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { SFNClient } from '@aws-sdk/client-sfn';
import { createDynamoDbClient, createS3Client } from '../../lambdas/wiring/sdk-clients.js';
import type { CloudClients } from '../../cli/cloud/aws/clients.js';
import type { Output } from '../../cli/output/summary.js';
import type { StandIn } from '../e2e/admission/stand-in.js';

/**
 * The cloud commands' clients as tests wire them: S3 and DynamoDB are the test run's local engine
 * (real servers, from the AWS_ENDPOINT_URL_* the global setup exported); Step Functions, CloudFormation and
 * CloudWatch, which have no local server, are real SDK clients whose requests the stand-in records and answers.
 */
export function cloudClients(standIn: StandIn): CloudClients {
  const options = {
    endpoint: standIn.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'stand-in', secretAccessKey: 'stand-in' },
  };
  return {
    s3: createS3Client(),
    dynamodb: createDynamoDbClient(),
    sfn: new SFNClient(options),
    cloudformation: new CloudFormationClient(options),
    cloudwatch: new CloudWatchClient(options),
  };
}

/** An Output that keeps what a command printed: stdout lines, stderr lines, raw terminal writes. */
export function capture(interactive = false) {
  const out: string[] = [];
  const err: string[] = [];
  const written: string[] = [];
  const output: Output & { write(text: string): void } = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    write: (text) => written.push(text),
    interactive,
  };
  return { output, out, err, written };
}

/** CloudFormation's DescribeStacks answer (query protocol XML) for a stack with these outputs. */
export function describeStacksXml(stackName: string, outputs: Record<string, string>): { xml: string } {
  const members = Object.entries(outputs)
    .map(
      ([key, value]) => `<member><OutputKey>${key}</OutputKey><OutputValue>${escapeXml(value)}</OutputValue></member>`,
    )
    .join('');
  return {
    xml:
      '<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member>' +
      `<StackName>${stackName}</StackName><StackStatus>CREATE_COMPLETE</StackStatus><CreationTime>2025-01-01T00:00:00Z</CreationTime>` +
      `<Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult>` +
      '<ResponseMetadata><RequestId>stand-in</RequestId></ResponseMetadata></DescribeStacksResponse>',
  };
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
