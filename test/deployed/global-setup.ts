import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildBundles } from '../../bin/build-bundles.js';
import { applyEngineEnv, engineEnv, startEngine } from './engine.js';
import { cdk, deploy, readTemplate, synth, writeTemplate } from './stack.js';
import { addEngineActionNames, simplifyMetricMathAlarms, shortenImportTimeout } from './template-edits.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The engine the stack is deployed into; its endpoint and CA are also in every worker's AWS_* env. */
    deployed: { endpoint: string; caFile: string; assemblyDir: string; scratchDir: string };
  }
}

const log = (line: string) => process.stderr.write(`[deployed tier] ${line}\n`);

/**
 * Starts ministack with IAM enforcement and TLS, synthesizes bin/app.ts with this folder's cdk.json, bootstraps the
 * account and deploys the stack (the real template and bundles, through the CDK CLI). Stops the engine afterwards.
 * This process trusts the system's CAs only (NODE_EXTRA_CA_CERTS is read at start): the cases, in forked workers,
 * make the SDK calls.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const scratchDir = mkdtempSync(join(tmpdir(), 's3ddb-deployed-'));
  const [built, started] = await Promise.allSettled([buildBundles(), startEngine(log)]);
  if (started.status === 'rejected') throw started.reason;
  const engine = started.value;
  const teardown = async () => {
    await engine.process.stop();
    rmSync(scratchDir, { recursive: true, force: true });
  };
  try {
    if (built.status === 'rejected') throw built.reason;
    applyEngineEnv(engine);
    const env = engineEnv(engine);
    const assemblyDir = join(scratchDir, 'assembly');
    await synth(assemblyDir, env);
    const template = readTemplate(assemblyDir);
    addEngineActionNames(template);
    simplifyMetricMathAlarms(template);
    shortenImportTimeout(template);
    writeTemplate(assemblyDir, template);
    await cdk(['bootstrap', '--app', assemblyDir], env);
    await deploy(assemblyDir, env);
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
