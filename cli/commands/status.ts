import { parseArgs } from 'node:util';
import { UsageError } from '../flags/cli-args.js';
import { CloudCommandError, type CloudClients } from '../cloud/clients.js';
import { lookAtExecution, newFollowMemory } from '../cloud/execution-snapshot.js';
import { finishExecution } from '../cloud/finish.js';
import { followExecution } from '../cloud/follow.js';
import { describe } from '../progress/renderer.js';
import type { Output } from '../output/summary.js';
import {
  FOLLOW_FLAG_OPTIONS,
  TARGET_FLAG_OPTIONS,
  parsePollSeconds,
  parseTargetFlags,
  resolveTarget,
  type TargetFlags,
} from './cloud-flags.js';

export const STATUS_USAGE = `usage: s3-ddb-import status <execution-arn|name> [--stack NAME | --state-machine ARN]
         [--follow] [--poll-s N] [--json]
  A running import prints where it is (phase, chunks, rows, rows/s, ETA) and exits 0; a finished one
  prints its summary, copies its rejects home and exits 0 (every row landed), 2 (rejects) or 1 (failed).`;

export interface StatusCommand {
  readonly execution: string;
  readonly target: TargetFlags;
  readonly follow: boolean;
  readonly pollSeconds: number;
  readonly json: boolean;
}

/** Parses the arguments after `status`; throws UsageError naming the bad flag. */
export function parseStatusCommand(args: string[]): StatusCommand {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { ...TARGET_FLAG_OPTIONS, ...FOLLOW_FLAG_OPTIONS, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new UsageError(`expected one <execution-arn|name>, got ${positionals.length}`);
  return {
    execution: positionals[0],
    target: parseTargetFlags(values),
    follow: values.follow === true,
    pollSeconds: parsePollSeconds(values['poll-s']),
    json: values.json === true,
  };
}

/** `s3-ddb-import status`: one look at an execution (or, with --follow, every few seconds to its end). */
export async function runStatusCommand(
  command: StatusCommand,
  clients: CloudClients,
  output: Output,
  now = Date.now,
): Promise<number> {
  const executionArn = await executionArnOf(clients, command);
  try {
    if (command.follow)
      return await followExecution(clients, executionArn, output, {
        json: command.json,
        pollSeconds: command.pollSeconds,
        now,
      });
    const look = await lookAtExecution(clients, executionArn, newFollowMemory(), now());
    if (!look.snapshot) return await finishExecution(clients, look.described, command.json, output);
    if (command.json) output.out(JSON.stringify({ status: 'RUNNING', executionArn, ...look.snapshot }));
    else output.out(describe(look.snapshot));
    return 0;
  } catch (error) {
    if ((error as Error).name !== 'ExecutionDoesNotExist') throw error;
    throw new CloudCommandError(
      `no execution ${executionArn}: check the name (s3-ddb-import start prints it), --stack and AWS_REGION`,
      { cause: error },
    );
  }
}

/**
 * An ARN as given; a name is an execution of the stack's state machine:
 * arn:...:stateMachine:<machine> becomes arn:...:execution:<machine>:<name>.
 */
async function executionArnOf(clients: CloudClients, command: StatusCommand): Promise<string> {
  if (command.execution.startsWith('arn:')) return command.execution;
  const { stateMachineArn } = await resolveTarget(clients, command.target);
  return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${command.execution}`;
}
