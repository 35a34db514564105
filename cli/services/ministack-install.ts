import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from './run-command.js';

/** Pinned so every machine tests against the same emulator. MIT licence, from PyPI. */
export const MINISTACK_VERSION = '1.5.33';
/**
 * Every package of the engine's venv, pinned (the output of `pip freeze` after installing the two top ones), so a
 * fresh machine gets exactly the tree the suite passed on. boto3 is not ministack's own dependency: the deployed tier
 * needs it because ministack runs CDK's Python custom resources (the bucket's notification config) in this venv.
 */
export const MINISTACK_PACKAGES: readonly string[] = [
  `ministack==${MINISTACK_VERSION}`,
  'boto3==1.43.106',
  'botocore==1.43.106',
  'defusedxml==0.7.1',
  'graphql-core==3.2.12',
  'h11==0.16.0',
  'h2==4.4.1',
  'hpack==4.2.0',
  'Hypercorn==0.18.0',
  'hyperframe==6.1.0',
  'jmespath==1.1.0',
  'jsonata-python==0.7.1',
  'priority==2.0.0',
  'python-dateutil==2.9.0.post0',
  'PyYAML==6.0.4',
  's3transfer==0.19.3',
  'six==1.17.0',
  'urllib3==2.8.0',
  'wsproto==1.3.2',
];
/** ministack's own floor (its `Requires-Python`). */
const MIN_PYTHON: readonly [number, number] = [3, 10];
/** Written last, so a venv without it is an interrupted install, never mistaken for a finished one. */
const MARKER = 'installed.txt';

/** Raised before any work when the machine lacks what the engine needs; the message names what to install. */
export class EngineRequirementError extends Error {
  override readonly name = 'EngineRequirementError';
}

/**
 * The Python of ministack's venv in the cache dir, created with `python3 -m venv` and `pip install` on first use
 * (about 10 s). The venv is built in a temp dir beside the target and renamed into place; it is only ever run as
 * `<venv>/bin/python -m …`, which works from the renamed path.
 */
export async function ensureMinistack(
  cache: string,
  log: (line: string) => void,
  python = process.env.S3DDB_PYTHON ?? 'python3',
): Promise<string> {
  const home = join(cache, `ministack-${MINISTACK_VERSION}`);
  const venvPython = join(home, 'bin', 'python');
  if (existsSync(join(home, MARKER))) return venvPython;

  await checkPython(python);
  log(`installing ministack ${MINISTACK_VERSION} from PyPI into ${home} (one time, about 10 s)…`);
  await mkdir(cache, { recursive: true });
  const work = await mkdtemp(join(cache, '.install-ministack-'));
  try {
    await runCommand(python, ['-m', 'venv', work], { log, label: 'ministack venv' });
    const pip = [join(work, 'bin', 'python'), '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check'];
    await runCommand(pip[0] as string, [...pip.slice(1), '--no-deps', ...MINISTACK_PACKAGES], {
      log,
      label: 'ministack install',
    });
    await writeFile(join(work, MARKER), `${MINISTACK_PACKAGES.join('\n')}\n`);
    // A concurrent install may have won the race; its venv is as good as ours.
    await rename(work, home).catch((error: unknown) => {
      if (!existsSync(join(home, MARKER))) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return venvPython;
}

/** Fails naming what to install when `python` is missing, too old, or has no venv module (Debian splits it out). */
async function checkPython(python: string): Promise<void> {
  const probe = 'import sys, venv, ensurepip; print("%d.%d" % sys.version_info[:2])';
  let version = '';
  try {
    version = await runCommand(python, ['-c', probe], { capture: true });
  } catch (error) {
    const missing = /cannot run/.test(String(error));
    throw new EngineRequirementError(
      missing
        ? `the local engine (ministack) needs Python ${MIN_PYTHON.join('.')}+ with venv: ${python} was not found. ` +
            'Install python3 and python3-venv (Debian/Ubuntu: apt-get install python3 python3-venv), ' +
            'or point S3DDB_PYTHON at a Python 3.10+, or set AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL_S3.'
        : `the local engine (ministack) needs Python's venv and ensurepip modules, which ${python} lacks. ` +
            'Install them (Debian/Ubuntu: apt-get install python3-venv).',
    );
  }
  const [major = 0, minor = 0] = version.trim().split('.').map(Number);
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    throw new EngineRequirementError(
      `the local engine (ministack) needs Python ${MIN_PYTHON.join('.')}+; ${python} is ${version.trim()}. ` +
        'Install a newer python3 (with venv), or point S3DDB_PYTHON at one.',
    );
  }
}
