import { UsageError, parseNumber } from '../flags/cli-args.js';
import type { CloudClients } from '../cloud/clients.js';
import { DEFAULT_STACK_NAME, readStackOutputs, type StackTarget } from '../cloud/stack-outputs.js';
import { DEFAULT_POLL_SECONDS } from '../cloud/follow.js';

/** Flags that name the deployed stack (parseArgs option specs), shared by start, status and estimate. */
export const TARGET_FLAG_OPTIONS = {
  stack: { type: 'string' },
  'state-machine': { type: 'string' },
  bucket: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Flags of the commands that can wait for the end of an execution. */
export const FOLLOW_FLAG_OPTIONS = {
  follow: { type: 'boolean', default: false },
  'poll-s': { type: 'string' },
} as const;

/** How the deployed stack is named on the command line. */
export interface TargetFlags {
  readonly stack?: string;
  readonly stateMachine?: string;
  readonly bucket?: string;
}

export function parseTargetFlags(values: Record<string, unknown>): TargetFlags {
  const text = (name: string) =>
    typeof values[name] === 'string' && values[name] !== '' ? (values[name] as string) : undefined;
  const stack = text('stack');
  const stateMachine = text('state-machine');
  if (stack && stateMachine) throw new UsageError('--stack and --state-machine name the same thing: give one');
  if (text('bucket') && !stateMachine) {
    throw new UsageError(
      "--bucket goes with --state-machine (a stack's bucket is its BucketName output, the only one its functions may read)",
    );
  }
  if (stateMachine && !/^arn:aws[a-z-]*:states:[^:]+:\d{12}:stateMachine:[^:]+$/.test(stateMachine)) {
    throw new UsageError(
      `--state-machine: expected arn:aws:states:<region>:<account>:stateMachine:<name>, got ${JSON.stringify(stateMachine)}`,
    );
  }
  return { stack, stateMachine, bucket: text('bucket') };
}

/** --poll-s: seconds between polls while following, above 0. */
export function parsePollSeconds(text: string | undefined): number {
  return parseNumber(text, '--poll-s', DEFAULT_POLL_SECONDS, (n) => n > 0);
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
