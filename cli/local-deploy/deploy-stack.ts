import { cpSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { cdk, type CdkRun } from './cdk-cli.js';
import { applyEngineEdits, type AppliedEdit, type EngineEdit } from './engine-edits.js';
import { envForEngine, type EngineTarget } from './engine-env.js';
import { LocalDeployError } from './local-deploy-error.js';
import { engineCloudFormation, explainDeployFailure, lastLine, stackOutputs } from './stack-state.js';
import { editTemplate } from './template.js';

/** What to deploy where. */
export interface LocalDeployOptions {
  readonly target: EngineTarget;
  /** The CDK app's folder: its cdk.json names the app (unless `app` does) and its context. */
  readonly cwd: string;
  /** `cdk --app`: a command that prints the app, or a cloud assembly folder. @default - the app cdk.json names */
  readonly app?: string;
  readonly stack: string;
  /** Where the assembly is synthesized (emptied first). */
  readonly assemblyDir: string;
  /** Edits of the caller's own after the engine's (the test tier shortens a timeout). @default - none */
  readonly extraEdits?: readonly EngineEdit[];
  readonly log: (line: string) => void;
}

/** A stack deployed into the engine. */
export interface LocalDeployment {
  readonly stack: string;
  readonly outputs: Record<string, string>;
  readonly edits: readonly AppliedEdit[];
  readonly assemblyDir: string;
}

/**
 * `local deploy`, step by step: synthesize the app, apply the engine's edits, bootstrap the engine's account,
 * deploy with the CDK CLI, read the outputs. The deployed test tier runs the same function.
 *
 * @example
 * const { outputs } = await deployToEngine({ target, cwd: process.cwd(), stack: 'S3DdbImport', assemblyDir, log });
 */
export async function deployToEngine(options: LocalDeployOptions): Promise<LocalDeployment> {
  const { target, stack, assemblyDir, log } = options;
  const run: CdkRun = { cwd: options.cwd, env: envForEngine(target), log };
  log(`synthesizing ${options.app ?? 'the app of cdk.json'}`);
  await synthesize(options, run);
  const edits = editTemplate(assemblyDir, stack, (template) => [
    ...applyEngineEdits(template),
    ...(options.extraEdits ?? []).map((edit) => ({ name: edit.name, changed: edit.apply(template) })),
  ]);
  for (const edit of edits.filter((e) => e.changed.length > 0))
    log(`engine edit ${edit.name}: ${edit.changed.join(', ')}`);
  log('bootstrapping the engine account (cdk bootstrap)');
  await cdk(['bootstrap', '--app', assemblyDir], run).catch((error: Error) => {
    throw new LocalDeployError(`cdk bootstrap failed: ${lastLine(error.message)}`, { cause: error });
  });
  const outputs = await deployAssembly(options);
  return { stack, outputs, edits, assemblyDir };
}

/**
 * `cdk deploy` of the stack of a synthesized (and edited) assembly into the engine, creating or updating it; returns
 * its outputs. A refusal becomes a LocalDeployError naming the resource and the engine's reason.
 */
export async function deployAssembly(
  options: Pick<LocalDeployOptions, 'target' | 'cwd' | 'stack' | 'assemblyDir' | 'log'>,
): Promise<Record<string, string>> {
  const { target, stack, assemblyDir, log } = options;
  const run: CdkRun = { cwd: options.cwd, env: envForEngine(target), log };
  log(`deploying ${stack} (cdk deploy)`);
  const cloudformation = engineCloudFormation(target);
  try {
    // The engine's clock is this machine's: a second of slack keeps events of this deploy whose stamp was rounded.
    const since = new Date(Date.now() - 1000);
    const deploy = ['deploy', stack, '--app', assemblyDir, '--require-approval', 'never', '--progress', 'events'];
    await cdk(deploy, run).catch(async (error: Error) => {
      throw await explainDeployFailure(cloudformation, stack, since, error);
    });
    return await stackOutputs(cloudformation, stack);
  } finally {
    cloudformation.destroy();
  }
}

/** The cloud assembly in `assemblyDir`: synthesized from the app, or copied when `app` is an assembly already. */
async function synthesize(options: LocalDeployOptions, run: CdkRun): Promise<void> {
  const { app, assemblyDir, stack } = options;
  rmSync(assemblyDir, { recursive: true, force: true });
  const assembly = app && existsSync(resolve(options.cwd, app)) && statSync(resolve(options.cwd, app)).isDirectory();
  if (assembly) cpSync(resolve(options.cwd, app), assemblyDir, { recursive: true });
  else {
    if (!app && !existsSync(resolve(options.cwd, 'cdk.json')))
      throw new LocalDeployError(`no cdk.json in ${options.cwd}`, {
        hint: "run it in your CDK app's folder, or give --app 'npx tsx bin/app.ts' (or a cdk.out folder)",
      });
    const args = ['synth', '--quiet', '--output', assemblyDir, ...(app ? ['--app', app] : [])];
    await cdk(args, run).catch((error: Error) => {
      throw new LocalDeployError(`cdk synth failed: ${lastLine(error.message)}`, { cause: error });
    });
  }
  const stacks = stacksOf(assemblyDir);
  if (!stacks.includes(stack))
    throw new LocalDeployError(`the app has no stack ${JSON.stringify(stack)}`, {
      hint: `name one of its stacks with --stack: ${stacks.join(', ') || '(none)'}`,
    });
}

/**
 * The stacks a cloud assembly holds: the ids of manifest.json's artifacts of type aws:cloudformation:stack (the id
 * names the template file and is what `cdk deploy` takes; it is the stack's name unless the app sets another).
 */
function stacksOf(assemblyDir: string): string[] {
  const manifest = JSON.parse(readFileSync(resolve(assemblyDir, 'manifest.json'), 'utf8')) as {
    artifacts?: Record<string, { type?: string }>;
  };
  return Object.entries(manifest.artifacts ?? {})
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
    .map(([id]) => id);
}
