import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { SFNClient } from '@aws-sdk/client-sfn';
import { createDynamoDbClient, createS3Client } from '../../../lambdas/wiring/sdk-clients.js';
import { CliError } from '../../output/cli-error.js';

/**
 * The AWS clients the cloud commands (start, status, estimate) call, passed into each module so tests point
 * them at the local engine and a recording stand-in. Everything comes from the SDK's configuration
 * chain: credentials, region (AWS_REGION, the profile), and endpoints (AWS_ENDPOINT_URL_<SERVICE>).
 */
export interface CloudClients {
  readonly s3: S3Client;
  readonly dynamodb: DynamoDBClient;
  readonly sfn: SFNClient;
  readonly cloudformation: CloudFormationClient;
  readonly cloudwatch: CloudWatchClient;
}

/** Fresh clients from the SDK's configuration chain; an S3 endpoint of one's own gets path-style addressing. */
export function createCloudClients(): CloudClients {
  return {
    s3: createS3Client(),
    dynamodb: createDynamoDbClient(),
    sfn: new SFNClient({}),
    cloudformation: new CloudFormationClient({}),
    cloudwatch: new CloudWatchClient({}),
  };
}

/** A cloud command failed in a way the user can fix; the message names the fix. Exit code 1. */
export class CloudCommandError extends CliError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CloudCommandError';
  }
}

/**
 * An AWS error as one line that names the fix where the cause is the caller's setup (credentials, region,
 * permissions); anything else keeps the SDK's own name and message.
 */
export function explainAwsError(error: Error): { name: string; message: string } {
  const fixes: Record<string, string> = {
    CredentialsProviderError:
      'configure AWS credentials (aws configure, AWS_PROFILE, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)',
    ExpiredToken: 'refresh your AWS credentials (aws sso login, or new session keys)',
    ExpiredTokenException: 'refresh your AWS credentials (aws sso login, or new session keys)',
    AccessDenied: 'ask for the permission the message names (your IAM identity, not the stack, makes this call)',
    AccessDeniedException:
      'ask for the permission the message names (your IAM identity, not the stack, makes this call)',
  };
  const fix =
    fixes[error.name] ??
    (/region is missing/i.test(error.message) ? 'set AWS_REGION (or a region in your AWS profile)' : undefined);
  return { name: error.name, message: fix ? `${error.message}: ${fix}` : error.message };
}
