import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../lib/package-root.js';
import { runCommand } from '../services/run-command.js';
import { LocalDeployError } from './local-deploy-error.js';

/** The CDK CLI's major version the app's aws-cdk-lib needs: 3.x cannot read its cloud assembly (design.md). */
const CDK_CLI = 'aws-cdk@2';

/**
 * The CDK CLI's entry script: the app's own (`aws-cdk` resolved from `cwd`, as `npx cdk` would find it), else this
 * package's. Throws LocalDeployError naming the install when neither has one.
 */
export function cdkEntry(cwd: string): string {
  for (const from of [join(cwd, 'package.json'), join(packageRoot(), 'package.json')]) {
    try {
      const manifest = createRequire(from).resolve('aws-cdk/package.json');
      const entry = join(dirname(manifest), 'bin', 'cdk');
      if (existsSync(entry)) return entry;
    } catch {
      // not installed there: try the next place
    }
  }
  throw new LocalDeployError('the CDK CLI (aws-cdk) is not installed in this app', {
    hint: `install it where your cdk.json is: npm i -D ${CDK_CLI}`,
  });
}

/** Where and how the CDK CLI runs: the app's folder, and the environment that points it at the engine. */
export interface CdkRun {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
}

/**
 * Runs the CDK CLI as `npx cdk <args>` would in `run.cwd`; resolves with its output, rejects with its last lines.
 *
 * @example
 * await cdk(['synth', '--quiet', '--output', '/tmp/assembly'], { cwd: process.cwd(), env, log: console.error });
 */
export function cdk(args: readonly string[], run: CdkRun): Promise<string> {
  return runCommand(process.execPath, [cdkEntry(run.cwd), ...args], {
    cwd: run.cwd,
    env: run.env,
    log: run.log,
    label: `cdk ${args[0]}`,
    capture: true,
  });
}
