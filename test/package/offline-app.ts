import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The repository root: what `npm pack` packs. */
export const REPO = new URL('../..', import.meta.url).pathname;

/** What `npm pack --json` says of the tarball it wrote. */
export interface PackResult {
  readonly filename: string;
  readonly version: string;
  readonly integrity: string;
  /** Bytes of the .tgz. */
  readonly size: number;
  readonly entryCount: number;
  readonly files: readonly { readonly path: string }[];
}

/** Runs a command, failing with its output (npm and tsc say what went wrong on stdout as often as on stderr). */
export async function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await promisify(execFile)(command, [...args], { ...options, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${message}\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** `npm pack` of the repository, as a release makes it (its `prepare` script builds dist/ first). */
export async function packRepository(destination: string): Promise<PackResult> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: REPO });
  // npm prints the JSON after any output of the build; the array starts on a line of its own.
  const [result] = JSON.parse(stdout.slice(stdout.search(/^\[/m))) as PackResult[];
  return result as PackResult;
}

type LockEntry = {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

/** The lock entry a dependency `name` of the package at `from` resolves to, walking up as Node does. */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ;) {
    const path = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[path]) return path;
    if (!base) return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

/** The repository lock's entries for `roots` and everything they depend on, with the repo's dev/peer flags off. */
function lockSubtree(packages: Record<string, LockEntry>, roots: readonly string[]): Record<string, LockEntry> {
  const kept: Record<string, LockEntry> = {};
  const visit = (path: string) => {
    if (kept[path]) return;
    const {
      dev: _dev,
      peer: _peer,
      devOptional: _devOptional,
      ...entry
    } = packages[path] as LockEntry & {
      dev?: boolean;
      peer?: boolean;
      devOptional?: boolean;
    };
    kept[path] = entry;
    const names = Object.keys({ ...entry.dependencies, ...entry.optionalDependencies });
    for (const name of names) {
      const found = resolveIn(packages, path, name);
      if (found) visit(found);
    }
  };
  roots.forEach((root) => visit(`node_modules/${root}`));
  return kept;
}

/**
 * A user's app folder that `npm ci --offline` fills from the local npm cache alone: the packed tarball and its
 * peer dependencies at the versions this repository's `npm ci` put in the cache. A lock is needed because the
 * cache holds the packages' tarballs but not their registry documents, which `npm install <name>` would ask for.
 */
export async function writeOfflineApp(dir: string, pack: PackResult): Promise<void> {
  const repoLock = JSON.parse(await readFile(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const manifest = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
  const peers = Object.keys(manifest.peerDependencies as Record<string, string>);
  const subtree = lockSubtree(repoLock.packages, peers);
  const tarball = `file:${pack.filename}`;
  const dependencies = {
    's3-ddb-import': tarball,
    ...Object.fromEntries(peers.map((name) => [name, subtree[`node_modules/${name}`]?.version as string])),
  };
  const packed = { version: pack.version, resolved: tarball, integrity: pack.integrity };
  const { bin, engines, license, peerDependencies } = manifest;
  const packages = {
    '': { name: 'user-app', dependencies },
    'node_modules/s3-ddb-import': { ...packed, license, bin, engines, peerDependencies },
    ...subtree,
  };
  const app = { name: 'user-app', private: true, type: 'module', dependencies };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(app, null, 2)}\n`);
  const lock = { name: 'user-app', lockfileVersion: 3, requires: true, packages };
  await writeFile(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

/** The first fenced block of `lang` under the README heading `## <heading>`: the example the test runs. */
export async function readmeExample(heading: string, lang: string): Promise<string> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  const block = section?.match(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'm'))?.[1];
  if (block === undefined) throw new Error(`README.md has no \`\`\`${lang} block under "## ${heading}"`);
  return block;
}
