import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from '../output/cli-error.js';
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
export class EngineRequirementError extends CliError {
  constructor(message: string) {
    super(message);
    this.name = 'EngineRequirementError';
  }
}

/**
 * The Python of ministack's venv in the cache dir, created on first use (about 5-10 s; downloads about 15 MB). The venv
 * is built in a temp dir beside the target and renamed into place; it is only ever run as `<venv>/bin/python -c …`,
 * which works from the renamed path.
 */
export async function ensureMinistack(
  cache: string,
  log: (line: string) => void,
  python = process.env.S3DDB_PYTHON ?? 'python3',
): Promise<string> {
  const home = join(cache, `ministack-${MINISTACK_VERSION}`);
  const venvPython = join(home, 'bin', 'python');
  if (existsSync(join(home, MARKER))) return venvPython;

  const found = await checkPython(python);
  log(`installing ministack ${MINISTACK_VERSION} from PyPI into ${home} (one time, about 10 s)…`);
  await mkdir(cache, { recursive: true });
  const work = await mkdtemp(join(cache, '.install-ministack-'));
  try {
    await installVenv(python, work, found.hostPip, log);
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

/**
 * A venv at `dir` with the pinned packages. With a host pip that takes `--python` (22.3+), the venv is made without
 * pip of its own: seeding one (ensurepip) costs more than the whole install. `--no-compile`: the engine imports a
 * small part of what is installed (botocore alone is thousands of files), and Python caches what it imports on the
 * first start.
 */
async function installVenv(python: string, dir: string, hostPip: boolean, log: (line: string) => void): Promise<void> {
  const install = ['install', '--quiet', '--disable-pip-version-check', '--no-compile', '--no-deps'];
  if (hostPip) {
    await runCommand(python, ['-m', 'venv', '--without-pip', dir], { log, label: 'ministack venv' });
    const pip = ['-m', 'pip', '--python', join(dir, 'bin', 'python'), ...install, ...MINISTACK_PACKAGES];
    await runCommand(python, pip, { log, label: 'ministack install' });
    return;
  }
  await runCommand(python, ['-m', 'venv', dir], { log, label: 'ministack venv' });
  const pip = ['-m', 'pip', ...install, ...MINISTACK_PACKAGES];
  await runCommand(join(dir, 'bin', 'python'), pip, { log, label: 'ministack install' });
}

/** What {@link checkPython} found: whether the host's own pip can install into another environment. */
interface PythonFound {
  readonly hostPip: boolean;
}

/**
 * Fails naming what to install when `python` is missing, too old, or can make no venv with pip in reach (Debian splits
 * `venv`'s ensurepip out into python3-venv, and pip into python3-pip: either will do).
 */
async function checkPython(python: string): Promise<PythonFound> {
  const probe = [
    'import importlib.util as u, sys',
    'pip = u.find_spec("pip") is not None',
    'print("%d.%d" % sys.version_info[:2], int(u.find_spec("venv") is not None), int(u.find_spec("ensurepip") is not None), pip and __import__("pip").__version__ or "")',
  ].join('; ');
  let answer = '';
  try {
    answer = await runCommand(python, ['-c', probe], { capture: true });
  } catch {
    // It ran, but not our probe: an old Python (2.x has no importlib.util), or not a Python. Say what it is.
    const reported = reportedVersion(python);
    throw new EngineRequirementError(
      reported === null
        ? `the local engine (ministack) needs Python ${MIN_PYTHON.join('.')}+ with venv: ${python} was not found. ` +
            'Install python3 and python3-venv (Debian/Ubuntu: apt-get install python3 python3-venv), ' +
            'or point S3DDB_PYTHON at a Python 3.10+, or set AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL_S3.'
        : tooOld(python, reported),
    );
  }
  const [version = '', venv, ensurepip, pipVersion = ''] = answer.trim().split(' ');
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1]))
    throw new EngineRequirementError(tooOld(python, /^\d+\.\d+$/.test(version) ? version : reportedVersion(python)));
  const [pipMajor = 0, pipMinor = 0] = pipVersion.split('.').map(Number);
  const hostPip = pipMajor > 22 || (pipMajor === 22 && pipMinor >= 3); // `pip --python` came in 22.3
  if (venv !== '1' || (ensurepip !== '1' && !hostPip)) {
    throw new EngineRequirementError(
      `the local engine (ministack) needs Python's venv module and a pip to fill it, which ${python} lacks. ` +
        'Install them (Debian/Ubuntu: apt-get install python3-venv).',
    );
  }
  return { hostPip };
}

function tooOld(python: string, version: string | null): string {
  return (
    `the local engine (ministack) needs Python ${MIN_PYTHON.join('.')}+; ${python} is ${version || 'of no version it will say'}. ` +
    'Install a newer python3 (with venv), or point S3DDB_PYTHON at one.'
  );
}

/**
 * What `python --version` says, either stream (Python 2 writes it to stderr): `Python 2.7.18`. Null when it
 * cannot be run at all.
 */
function reportedVersion(python: string): string | null {
  const run = spawnSync(python, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (run.error) return null;
  return `${run.stdout}${run.stderr}`.trim().split('\n')[0] ?? '';
}
