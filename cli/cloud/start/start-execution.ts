import {
  ExecutionAlreadyExists,
  InvalidName,
  StartExecutionCommand,
  StateMachineDoesNotExist,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import { CloudCommandError } from '../aws/clients.js';
import type { StartRequest } from './start-request.js';

/** StartExecution (https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html). */
export async function startExecution(
  sfn: SFNClient,
  stateMachineArn: string,
  name: string,
  request: StartRequest,
): Promise<string> {
  try {
    const started = await sfn.send(
      new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(request) }),
    );
    return started.executionArn ?? '';
  } catch (error) {
    const fix = fixOf(error, name, stateMachineArn);
    if (fix) throw new CloudCommandError(`${(error as Error).name}: ${fix}`, { cause: error });
    throw error;
  }
}

/** What the user changes when StartExecution refuses (the API's own error classes). */
function fixOf(error: unknown, name: string, stateMachineArn: string): string | undefined {
  if (error instanceof ExecutionAlreadyExists)
    return `an execution named ${name} ran with another input (names last 90 days): give another --name`;
  if (error instanceof InvalidName)
    return `--name ${JSON.stringify(name)}: use only letters, digits, - and _ (at most 80)`;
  if (error instanceof StateMachineDoesNotExist)
    return `the state machine ${stateMachineArn} does not exist: redeploy the stack, or check --stack/--state-machine and AWS_REGION`;
  return undefined;
}
