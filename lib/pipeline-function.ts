import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  NodejsFunction,
  OutputFormat,
  type BundlingOptions,
  type NodejsFunctionProps,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { HANDLER_BUNDLE_SETTINGS, handlerBundleFile } from './bundle-settings.js';
import { acknowledge } from './nag-acknowledgments.js';
import { packageRoot } from './package-root.js';

/**
 * The package root (the repository in a checkout, `node_modules/s3-ddb-import` once installed): handler
 * paths, the lock file and the workflow file are resolved from here, not from the cwd.
 */
export const REPO_ROOT = packageRoot(import.meta.url);

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

type HandlerCode = Pick<
  NodejsFunctionProps,
  'entry' | 'handler' | 'projectRoot' | 'depsLockFilePath' | 'bundling' | 'code'
>;

/**
 * Where a function's code comes from. In a checkout the handler's TypeScript source is there, and NodejsFunction
 * bundles it with the local esbuild. Installed from npm there are no sources and no esbuild: the function deploys
 * the bundle `npm run build` made from the same source with the same settings before `npm pack`
 * (dist/lambdas/<handler>/: index.js, its map and bundle-settings' HANDLER_PACKAGE_JSON), the file `local` runs too.
 */
function handlerCode(entry: string): HandlerCode {
  const source = join(REPO_ROOT, entry);
  if (existsSync(source)) {
    return {
      entry: source,
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      bundling: nodejsBundling(),
    };
  }
  const bundle = join(REPO_ROOT, handlerBundleFile(entry));
  const marker = join(dirname(bundle), 'package.json');
  if (!existsSync(bundle) || !existsSync(marker)) {
    throw new Error(`handler bundle ${bundle} (or its package.json) is missing, and so is its source ${source}`);
  }
  return { code: lambda.Code.fromAsset(dirname(bundle)), handler: 'index.handler' };
}

export interface PipelineFunctionProps {
  /** Handler file relative to the package root; it exports `handler`. */
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
 * One pipeline Lambda: Node.js 22 on ARM64, bundled by esbuild as minified ESM with source maps (see handlerCode),
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
      ...handlerCode(props.entry),
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      logGroup,
      role,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
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
