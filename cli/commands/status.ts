import { ExecutionDoesNotExist } from '@aws-sdk/client-sfn';
import { defineCommand } from '../command-line/parse-command-line.js';
import { CloudCommandError, createCloudClients, type CloudClients } from '../cloud/aws/clients.js';
import { lookAtExecution, newFollowMemory } from '../cloud/follow/execution-snapshot.js';
import { finishExecution } from '../cloud/follow/finish.js';
import { followExecution } from '../cloud/follow/follow.js';
import { JSON_FLAG } from '../flags/request-flags.js';
import { describe } from '../progress/renderer.js';
import type { Output } from '../output/summary.js';
import {
  FOLLOW_FLAGS,
  TARGET_FLAGS,
  parseTargetFlags,
  resolveTarget,
  withLiveSettings,
  type TargetFlags,
} from './cloud-flags.js';
import { reportingFailures } from './cloud-failure.js';

export interface StatusCommand {
  readonly execution: string;
  readonly target: TargetFlags;
  readonly follow: boolean;
  readonly pollSeconds: number;
  readonly json: boolean;
}

/** `s3-ddb-import status <execution>`: where a deployed import is, or its end. */
export const STATUS = defineCommand({
  name: 'status',
  summary: "one look at a deployed import (or --follow it to its end); a finished one's summary and exit code",
  positionals: [{ name: 'execution-arn|name', description: "the execution's ARN, or its name (start prints it)" }],
  flags: {
    ...TARGET_FLAGS,
    bucket: {
      ...TARGET_FLAGS.bucket,
      description: 'taken with --state-machine, as start takes it; status reads no bucket',
    },
    ...FOLLOW_FLAGS,
    json: JSON_FLAG,
  },
  details: [
    'A running import prints where it is (phase, chunks, rows, rows/s, ETA) and exits 0; a finished one prints its ' +
      'summary, copies its rejects home and exits 0 (every row landed), 2 (rejects) or 1 (failed).',
  ],
  input: ({ values, positionals }): StatusCommand => ({
    execution: positionals[0],
    target: parseTargetFlags(values),
    follow: values.follow === true,
    pollSeconds: values['poll-s'],
    json: values.json === true,
  }),
  run: (command, output) =>
    reportingFailures('status', command.json, output, () =>
      runStatusCommand(command, withLiveSettings(createCloudClients(), command.target), output),
    ),
});

/** The arguments after `status`, as the CLI parses them; throws UsageError naming the bad flag. */
export const parseStatusCommand = (args: readonly string[]): StatusCommand => STATUS.parse(args);

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
    if (!(error instanceof ExecutionDoesNotExist)) throw error;
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
