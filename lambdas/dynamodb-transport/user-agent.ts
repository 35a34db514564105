import packageJson from '../../package.json' with { type: 'json' };

/** An application named in a User-Agent: the SDK's `[name, version]` pair. */
export interface UserAgentApp {
  readonly name: string;
  readonly version: string;
}

/** This project, from package.json: resolved when the bundle is built (esbuild inlines the JSON). */
export const PACKAGE_APP: UserAgentApp = { name: packageJson.name, version: packageJson.version };

/** The SDK's escaping (@aws-sdk/core middleware-user-agent/constants.ts): anything else becomes `-`. */
const NAME_ESCAPE = /[^!$%&'*+\-.^_`|~\w]/g;
const VALUE_ESCAPE = /[^!$%&'*+\-.^_`|~\w#]/g;

/**
 * The User-Agent of DynamoDbWriteTransport's requests, in the SDK's format: space-separated sections
 * `prefix/name#value` (@aws-sdk/core's user-agent middleware, escapeUserAgent; the sections of
 * createDefaultUserAgentProvider), here the application, the language, the runtime and, in Lambda, the
 * execution environment, e.g. `s3-ddb-import/0.1.0 lang/js md/nodejs#22.11.0 exec-env/AWS_Lambda_nodejs22.x`.
 * It names us in the service's request logs and CloudTrail's `userAgent`, as the SDK names itself.
 *
 * @param runtime the Node.js version @default - process.versions.node
 * @param executionEnv e.g. `AWS_Lambda_nodejs22.x` @default - process.env.AWS_EXECUTION_ENV (unset outside Lambda)
 */
export function userAgent(
  app: UserAgentApp = PACKAGE_APP,
  runtime: string = process.versions.node,
  executionEnv: string | undefined = process.env.AWS_EXECUTION_ENV,
): string {
  const sections = [
    `${escape(app.name, NAME_ESCAPE)}/${escape(app.version, VALUE_ESCAPE)}`,
    'lang/js',
    `md/nodejs#${escape(runtime, VALUE_ESCAPE)}`,
    ...(executionEnv ? [`exec-env/${escape(executionEnv, NAME_ESCAPE)}`] : []),
  ];
  return sections.join(' ');
}

const escape = (text: string, disallowed: RegExp) => text.replace(disallowed, '-');
