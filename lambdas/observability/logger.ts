import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

/** The `service` key of every log line. */
export const SERVICE_NAME = 's3-ddb-import';

/** What a handler logs through: one JSON line per entry, `fields` merged into it. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export type LogFields = Record<string, unknown>;

/**
 * The logger of one container, made once in each handler factory (after the CLI has set LOG_LEVEL). Powertools
 * reads the level from `AWS_LAMBDA_LOG_LEVEL` (the function's advanced logging setting) before
 * `POWERTOOLS_LOG_LEVEL` and `LOG_LEVEL`, and writes one JSON line per entry with `level`, `message`,
 * `timestamp`, `service` and, inside Lambda, `xray_trace_id`.
 */
export function createContainerLogger(): PowertoolsLogger {
  return new PowertoolsLogger({ serviceName: SERVICE_NAME });
}

/**
 * The logger of one invocation: every line carries `keys` (what identifies the work: bucket, key, table,
 * execution, chunk) and, given Lambda's context, `function_request_id`, `cold_start` and the function's name.
 * The context goes on the container's logger (one invocation at a time in Lambda), whose cold-start flag is
 * true on its first invocation only; the keys go with each line rather than on the shared logger, so chunks
 * the local runner imports at once in one container keep theirs apart. (A Powertools child logger would
 * report every invocation as a cold start: each child starts its own flag.)
 *
 * @example
 * const log = invocationLogger(containerLogger, context, { bucket, key, chunk: 3 });
 * log.info('chunk progress', { rows: 1200 });
 */
export function invocationLogger(container: PowertoolsLogger, context: object, keys: LogFields): Logger {
  if (isLambdaContext(context)) container.addContext(context);
  const withKeys =
    (level: keyof Logger) =>
    (message: string, fields?: LogFields): void =>
      container[level](message, fields ? { ...keys, ...fields } : keys);
  return { debug: withKeys('debug'), info: withKeys('info'), warn: withKeys('warn'), error: withKeys('error') };
}

function isLambdaContext(context: object): context is Context {
  return typeof (context as Partial<Context>).awsRequestId === 'string';
}
