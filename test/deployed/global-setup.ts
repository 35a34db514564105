import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildBundles } from '../../bin/build-bundles.js';
import { applyEngineEnv, deployToEngine, iamEngineTarget, startIamEngine } from '../../cli/local-deploy/index.js';
import { APP_DIR, SHORT_IMPORT_TIMEOUT, STACK } from './tier-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The engine the stack is deployed into; its endpoint and CA are also in every worker's AWS_* env. */
    deployed: { endpoint: string; caFile: string; assemblyDir: string; scratchDir: string };
  }
}

const log = (line: string) => process.stderr.write(`[deployed tier] ${line}\n`);

/**
 * Starts ministack with IAM enforcement and TLS, and deploys bin/app.ts with this folder's cdk.json into it as
 * `s3-ddb-import local deploy` does (the same function: synth, the engine's edits, bootstrap, deploy through the CDK
 * CLI), plus the tier's short import timeout. Stops the engine afterwards.
 * This process trusts the system's CAs only (NODE_EXTRA_CA_CERTS is read at start): the cases, in forked workers,
 * make the SDK calls.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const scratchDir = mkdtempSync(join(tmpdir(), 's3ddb-deployed-'));
  const [built, started] = await Promise.allSettled([buildBundles(), startIamEngine(log)]);
  if (started.status === 'rejected') throw started.reason;
  const engine = started.value;
  const teardown = async () => {
    await engine.process.stop();
    rmSync(scratchDir, { recursive: true, force: true });
  };
  try {
    if (built.status === 'rejected') throw built.reason;
    const target = iamEngineTarget(engine);
    applyEngineEnv(target);
    const assemblyDir = join(scratchDir, 'assembly');
    const extraEdits = [SHORT_IMPORT_TIMEOUT];
    const { edits } = await deployToEngine({ target, cwd: APP_DIR, stack: STACK, assemblyDir, extraEdits, log });
    // Every edit must still find what it changes in this stack: one that finds nothing names a stale workaround.
    const idle = edits.filter((edit) => edit.changed.length === 0).map((edit) => edit.name);
    if (idle.length > 0) throw new Error(`engine edits that changed nothing: ${idle.join(', ')}`);
    project.provide('deployed', {
      endpoint: engine.endpoint,
      caFile: engine.caFile as string,
      assemblyDir,
      scratchDir,
    });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
