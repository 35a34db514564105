import type { FlagSpec } from '../command-line/command-spec.js';
import { UsageError } from '../command-line/usage-error.js';
import { parseNumber } from '../flags/values.js';
import type { CloudClients } from '../cloud/aws/clients.js';
import { DEFAULT_STACK_NAME, readStackOutputs, type StackTarget } from '../cloud/aws/stack-outputs.js';
import { DEFAULT_POLL_SECONDS } from '../cloud/follow/follow.js';
import type { LookClients } from '../cloud/follow/execution-snapshot.js';
import { stackLiveSettings } from '../cloud/aws/live-settings.js';

/** Flags that name the deployed stack: `start` and `status`. */
export const TARGET_FLAGS = {
  stack: {
    type: 'string',
    value: 'NAME',
    description: 'the deployed stack, whose outputs name the state machine and the bucket',
    default: DEFAULT_STACK_NAME,
    conflicts: { 'state-machine': 'name the same thing: give one' },
  },
  'state-machine': {
    type: 'string',
    value: 'ARN',
    description: 'the state machine itself, instead of --stack (skips CloudFormation)',
  },
  bucket: {
    type: 'string',
    value: 'B',
    description: "with --state-machine: the bucket a local source is uploaded to (the stack's BucketName)",
  },
} as const satisfies Record<string, FlagSpec>;

/** Flags of the commands that can wait for the end of an execution. */
export const FOLLOW_FLAGS = {
  follow: { type: 'boolean', description: 'show its progress until it ends, then its summary and exit code' },
  'poll-s': {
    type: 'string',
    value: 'N',
    description: 'seconds between looks while following',
    default: DEFAULT_POLL_SECONDS,
    parse: (text: string, flag: string) => parseNumber(text, flag, DEFAULT_POLL_SECONDS, (n) => n > 0),
  },
} as const satisfies Record<string, FlagSpec>;

/** How the deployed stack is named on the command line. */
export interface TargetFlags {
  readonly stack?: string;
  readonly stateMachine?: string;
  readonly bucket?: string;
}

export function parseTargetFlags(values: { stack?: string; 'state-machine'?: string; bucket?: string }): TargetFlags {
  const stack = values.stack || undefined;
  const stateMachine = values['state-machine'] || undefined;
  const bucket = values.bucket || undefined;
  if (bucket && !stateMachine) {
    throw new UsageError(
      "--bucket goes with --state-machine (a stack's bucket is its BucketName output, the only one its functions may read)",
    );
  }
  if (stateMachine && !/^arn:aws[a-z-]*:states:[^:]+:\d{12}:stateMachine:[^:]+$/.test(stateMachine)) {
    throw new UsageError(
      `--state-machine: expected arn:aws:states:<region>:<account>:stateMachine:<name>, got ${JSON.stringify(stateMachine)}`,
    );
  }
  return { stack, stateMachine, bucket };
}

/**
 * The state machine and bucket to use: --state-machine (and --bucket) as given, or the outputs of the stack
 * named by --stack (default: the app's stack, S3DdbImport).
 */
export async function resolveTarget(clients: CloudClients, flags: TargetFlags): Promise<StackTarget> {
  if (flags.stateMachine)
    return {
      stateMachineArn: flags.stateMachine,
      bucketName: flags.bucket ?? null,
      watchedPrefixes: null,
      bucketKmsKeyArn: null,
    };
  return readStackOutputs(clients.cloudformation, flags.stack ?? DEFAULT_STACK_NAME);
}

/**
 * The clients of a command that follows an execution of the stack its flags name: they also read its live
 * settings from the stack's ledger (the status line `live: ...`, `live` in --json). --state-machine skips
 * CloudFormation, so no stack names a ledger: no live line then.
 */
export function withLiveSettings(clients: CloudClients, target: TargetFlags): LookClients {
  const stack = target.stateMachine ? null : (target.stack ?? DEFAULT_STACK_NAME);
  return { ...clients, liveSettings: stackLiveSettings(clients, stack) };
}
