import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployToEngine, LocalDeployError, type LocalDeployOptions } from '../../cli/local-deploy/index.js';

/** Never reached: each case fails before the first request. */
const target = {
  endpoint: 'http://127.0.0.1:9',
  region: 'us-east-1',
  credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
};

async function options(overrides: Partial<LocalDeployOptions>): Promise<LocalDeployOptions> {
  const scratch = await mkdtemp(join(tmpdir(), 'deploy-errors-'));
  return {
    target,
    cwd: scratch,
    stack: 'S3DdbImport',
    assemblyDir: join(scratch, 'out'),
    log: () => undefined,
    ...overrides,
  };
}

describe('local deploy stops before any request, with one line and what to do', () => {
  it('fails when the folder has no cdk.json and no --app is given', async () => {
    const given = await options({});
    const error = await deployToEngine(given).catch((e: Error) => e);
    expect(error).toBeInstanceOf(LocalDeployError);
    expect(error).toMatchObject({ name: 'LocalDeployError', message: `no cdk.json in ${given.cwd}` });
    expect((error as LocalDeployError).hint).toMatch(/--app/);
  });

  it('fails when the app has no stack of that name, listing the ones it has', async () => {
    const assembly = await mkdtemp(join(tmpdir(), 'assembly-'));
    const artifacts = { Other: { type: 'aws:cloudformation:stack' }, Tree: { type: 'cdk:tree' } };
    await writeFile(join(assembly, 'manifest.json'), JSON.stringify({ artifacts }));
    const error = await deployToEngine(await options({ app: assembly })).catch((e: Error) => e);
    expect(error).toMatchObject({
      name: 'LocalDeployError',
      message: 'the app has no stack "S3DdbImport"',
      hint: 'name one of its stacks with --stack: Other',
    });
  });
});
