import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { HANDLER_BUNDLE_SETTINGS } from './bundle-settings.js';
import { acknowledge } from './nag-acknowledgments.js';

/** The repository root: handler paths and the lock file are resolved from here, not from the cwd. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The handler bundle settings that `npm run build` also uses, in NodejsFunction's words (it always adds
 * `--bundle --platform=node`). test/lib/bundle-settings.test.ts checks the outputs are the same bytes.
 */
function nodejsBundling(): BundlingOptions {
  const settings = HANDLER_BUNDLE_SETTINGS;
  return {
    format: OutputFormat.ESM satisfies `${typeof settings.format}`, // stops compiling if the shared format changes
    target: settings.target,
    minify: settings.minify,
    sourceMap: settings.sourcemap,
    sourcesContent: settings.sourcesContent,
    mainFields: [...settings.mainFields],
    banner: settings.banner.js,
    externalModules: [...settings.external],
  };
}

export interface PipelineFunctionProps {
  /** Handler file relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly environment: Record<string, string>;
  /** @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /** @default - none: the function shares the account's unreserved concurrency */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * One pipeline Lambda: Node.js 22 on ARM64, bundled locally by esbuild as minified ESM with source maps,
 * logging to its own log group with a retention. Its role starts empty (no AWSLambdaBasicExecutionRole,
 * which allows creating and writing any log group): it may write its own log group, and callers grant
 * the rest.
 */
export class PipelineFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: PipelineFunctionProps) {
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    });
    super(scope, id, {
      entry: fileURLToPath(new URL(`../${props.entry}`, import.meta.url)),
      handler: 'handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      logGroup,
      role,
      projectRoot: REPO_ROOT,
      depsLockFilePath: fileURLToPath(new URL('../package-lock.json', import.meta.url)),
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
      bundling: nodejsBundling(),
    });
    logGroup.grantWrite(this);
    acknowledge(
      this,
      'AwsSolutions-L1',
      'Node.js 22 is the runtime the design pins and the bundle targets (esbuild target node22); moving to a ' +
        'newer runtime is a deliberate upgrade, not a lint fix.',
    );
  }
}
