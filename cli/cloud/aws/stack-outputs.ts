import { DescribeStacksCommand, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudCommandError } from './clients.js';

/** The app's stack id in bin/app.ts, which `cdk deploy` uses as the stack name. */
export const DEFAULT_STACK_NAME = 'S3DdbImport';

/**
 * The stack outputs the CLI reads (lib/s3-ddb-import-stack.ts). Their names are public contract: a stack
 * deployed by an older or newer version must still be found by them.
 */
export const STACK_OUTPUTS = {
  stateMachineArn: 'StateMachineArn',
  bucketName: 'BucketName',
  /** JSON array of the watched prefixes; absent from stacks deployed before it existed. */
  watchedPrefixes: 'WatchedPrefixes',
  /** The bucket's KMS key ARN; only on a stack whose bucket is SSE-KMS (and absent from stacks before it existed). */
  bucketKmsKeyArn: 'BucketKmsKeyArn',
  /** The ledger of running imports (`rate`, `pause`, `resume`, status's live line); absent from stacks before it. */
  ledgerTableName: 'LedgerTableName',
  /** JSON array of the other buckets imports may read (the construct's `sources`); only on a stack that has some. */
  sourceBuckets: 'SourceBuckets',
} as const;

export interface StackTarget {
  readonly stateMachineArn: string;
  /** The stack's bucket; null when only a state machine ARN was given. */
  readonly bucketName: string | null;
  /** Prefixes whose uploads start an import by themselves; null when the stack does not say. */
  readonly watchedPrefixes: string[] | null;
  /** The bucket's KMS key: uploads ask for SSE-KMS with it (cli/cloud/upload.ts). Null when the bucket has none. */
  readonly bucketKmsKeyArn: string | null;
  /** The ledger table; absent when the stack has none (deployed before it) or only a state machine ARN was given. */
  readonly ledgerTableName?: string;
  /** The other buckets the stack's imports may read (`start s3://<one of them>/...`); absent when it has none. */
  readonly sourceBuckets?: string[];
}

/**
 * Reads the deployed stack's outputs with DescribeStacks (Stacks[0].Outputs[].OutputKey/OutputValue:
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeStacks.html).
 */
export async function readStackOutputs(cloudformation: CloudFormationClient, stackName: string): Promise<StackTarget> {
  let outputs: Record<string, string>;
  try {
    const answer = await cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = answer.Stacks?.[0];
    outputs = Object.fromEntries((stack?.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue ?? '']));
  } catch (error) {
    // CloudFormation answers a missing stack with ValidationError "Stack with id X does not exist" (an error the
    // SDK models no class for: its name is what there is to match).
    if ((error as Error).name !== 'ValidationError') throw error;
    throw new CloudCommandError(
      `stack ${JSON.stringify(stackName)} not found (${(error as Error).message}): deploy it with ` +
        '`npx cdk deploy`, name it with --stack NAME, check AWS_REGION, or give --state-machine ARN',
      { cause: error },
    );
  }
  const stateMachineArn = outputs[STACK_OUTPUTS.stateMachineArn];
  if (!stateMachineArn) {
    throw new CloudCommandError(
      `stack ${JSON.stringify(stackName)} has no ${STACK_OUTPUTS.stateMachineArn} output: ` +
        'is it an s3-ddb-import stack? Name the right one with --stack NAME or give --state-machine ARN',
    );
  }
  return {
    stateMachineArn,
    bucketName: outputs[STACK_OUTPUTS.bucketName] || null,
    watchedPrefixes: parsePrefixes(outputs[STACK_OUTPUTS.watchedPrefixes]),
    bucketKmsKeyArn: outputs[STACK_OUTPUTS.bucketKmsKeyArn] || null,
    ledgerTableName: outputs[STACK_OUTPUTS.ledgerTableName] || undefined,
    ...(outputs[STACK_OUTPUTS.sourceBuckets]
      ? { sourceBuckets: parsePrefixes(outputs[STACK_OUTPUTS.sourceBuckets]) ?? [] }
      : {}),
  };
}

function parsePrefixes(text: string | undefined): string[] | null {
  if (text === undefined) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : null;
  } catch {
    return null;
  }
}

/** The first watched prefix that `key` falls under, if any. */
export function watchedPrefixOf(key: string, prefixes: readonly string[] | null): string | null {
  return (prefixes ?? []).find((prefix) => key.startsWith(prefix)) ?? null;
}
