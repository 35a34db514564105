import { CliError } from '../output/cli-error.js';

/**
 * `local deploy` could not deploy: the engine refused a resource, or the app did not synthesize. The message is one
 * sentence naming what and why; the hint says what to do.
 *
 * @example
 * throw new LocalDeployError('the engine refused resource Table (AWS::DynamoDB::Table): taken already exists');
 */
export class LocalDeployError extends CliError {
  constructor(message: string, options: ErrorOptions & { hint?: string } = {}) {
    super(message, options);
    this.name = 'LocalDeployError';
  }
}
