import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  builtPackage,
  builtBundles,
  deployedBundles,
  expectSameTemplate,
  comparable,
  copyExample,
  pythonVenv,
  synth,
  synthTypeScript,
  type Synthesized,
} from './synth-apps.js';

// examples/python/app.py as a Python user runs it: a venv with aws-cdk-lib and constructs from PyPI and the wheel
// `npm run build:jsii` wrote, the app copied out of the repository, `cdk synth` with cdk.json's `python app.py`.
describe('the Python app (examples/python)', () => {
  let python: Synthesized;
  let typescript: Synthesized;

  beforeAll(async () => {
    const venv = await pythonVenv(await builtPackage('python', '.whl'));
    const app = await copyExample('python');
    python = await synth(app, { PATH: `${join(venv, 'bin')}:${process.env.PATH ?? ''}`, VIRTUAL_ENV: venv });
    typescript = await synthTypeScript();
  });

  it('synthesizes the template the TypeScript app does for the same props: state machine, functions, grants, rules, outputs', () => {
    const ours = comparable(python.template);
    const theirs = comparable(typescript.template);
    expectSameTemplate(ours, theirs);
  });

  it('holds the pipeline: the workflow, its four task functions, the watch rule, the stack outputs the CLI reads', () => {
    const types = Object.values(python.template.Resources).map((resource) => resource.Type);
    // The import workflow and the watch's starter.
    expect(types.filter((type) => type === 'AWS::StepFunctions::StateMachine')).toHaveLength(2);
    expect(types.filter((type) => type === 'AWS::Events::Rule').length).toBeGreaterThanOrEqual(1);
    expect(Object.keys(python.template.Outputs as object)).toEqual(
      expect.arrayContaining(Object.keys(typescript.template.Outputs as object)),
    );
  });

  it('deploys the bundles the wheel carries: byte for byte those npm run build:jsii built, one per function', async () => {
    const deployed = await deployedBundles(python);
    const built = await builtBundles();
    expect(deployed).toEqual(built);
    // Nothing was built in the app's folder: the app is its two files and the cloud assembly.
    expect((await readdir(join(python.cdkOut, '..'))).sort()).toEqual(['app.py', 'cdk.json', 'cdk.out']);
  });
});
