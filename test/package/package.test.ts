import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_HANDLER_FILES } from '../../lib/workflow-tasks.js';
import { checkSynthesizedApp } from './app-template.js';
import { declarationImports, EXPECTED_FILES, isConstructFile, nonBuiltinImports } from './package-files.js';
import { TASK_FUNCTIONS } from '../../lib/workflow-tasks.js';
import { packRepository, readmeExample, REPO, run, writeOfflineApp, type PackResult } from './offline-app.js';

// The proof that `npm i s3-ddb-import` gives a user the construct and the CLI: the repository is packed as a
// release packs it, the tarball is installed into an empty folder from the local npm cache only, and the README's
// own examples run there. About 30 s of CPU (the build of `npm pack`, `npm ci`, tsc on the app, two synths, one
// import); 90 to 240 s of wall time on this 2-core machine shared with other runs (load average 15-25). Nothing
// here depends on the time taken.

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
/** A table the app makes but does not give the pipeline: no grant may name it. */
const OTHER_TABLE = `
new dynamodb.Table(stack, 'NotImported', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
`;
/** The user's tsconfig: the one `cdk init app --language typescript` writes, reduced to what matters here. */
const APP_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    types: [],
    outDir: 'out',
  },
  files: ['app.ts', 'app.cts'],
};

let work: string;
let app: string;
let pack: PackResult;
let compiled: Promise<void> | undefined;

/**
 * The user's compile, once for both tests that need it: the README's block as an ES module (app.ts, the app is
 * `"type": "module"`) and as CommonJS (app.cts), type-checked against the package's declarations in one program.
 */
function compileApp(): Promise<void> {
  compiled ??= (async () => {
    const example = await readmeExample('Use it in your CDK app', 'ts');
    expect(example).toContain("from 's3-ddb-import'");
    await writeFile(join(app, 'app.ts'), `${example}${OTHER_TABLE}`);
    await writeFile(join(app, 'app.cts'), `${example}${OTHER_TABLE}`);
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify(APP_TSCONFIG));
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app });
  })();
  return compiled;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 's3-ddb-import-package-'));
  app = join(work, 'app');
  pack = await packRepository(work);
  await mkdir(app);
  await copyFile(join(work, pack.filename), join(app, pack.filename));
  await writeOfflineApp(app, pack);
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app });
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds only what a user needs: the whitelist, nothing else', () => {
    const files = pack.files.map((file) => file.path).sort();
    const unexpected = files.filter((path) => !EXPECTED_FILES.includes(path) && !isConstructFile(path));
    expect(unexpected).toEqual([]);
    expect(files).toEqual(expect.arrayContaining([...EXPECTED_FILES]));
    // The construct: its entry and, for each module, the JavaScript beside its declarations.
    const construct = files.filter(isConstructFile);
    expect(construct).toEqual(expect.arrayContaining(['dist/construct/lib/index.js', 'dist/construct/lib/index.d.ts']));
    const modules = (suffix: string) =>
      construct.filter((p) => p.endsWith(suffix)).map((p) => p.slice(0, -suffix.length));
    expect(modules('.d.ts')).toEqual(modules('.js'));
    console.info(`package: ${pack.filename}, ${pack.entryCount} files, ${pack.size} bytes packed`);
  });

  it("declares types a user's compiler can resolve: imports only itself, aws-cdk-lib and constructs", async () => {
    const imports = await declarationImports(join(app, 'node_modules/s3-ddb-import/dist/construct/lib/index.d.ts'));
    expect(imports.filter((name) => !/^(aws-cdk-lib(\/.*)?|constructs)$/.test(name))).toEqual([]);
    expect(imports).toContain('aws-cdk-lib');
  });

  it('needs no runtime dependencies: the CLI and handler bundles import only Node built-ins', async () => {
    const installed = join(app, 'node_modules/s3-ddb-import');
    const bundles = EXPECTED_FILES.filter((path) => /\.m?js$/.test(path) && path.startsWith('dist/'));
    expect(bundles).toHaveLength(1 + Object.keys(TASK_FUNCTIONS).length); // the CLI and each function's
    for (const bundle of bundles) expect(await nonBuiltinImports(join(installed, bundle)), bundle).toEqual([]);
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toBeUndefined();
  });

  it.each([
    ['an ES module app', 'out/app.js'],
    [
      'a CommonJS app (the `cdk init` default: TypeScript 5.8+ compiles it, Node.js 20.19+ requires ES modules)',
      'out/app.cjs',
    ],
  ])(
    "synthesizes the README code as %s, with the package's bundles and no esbuild",
    async (_kind, script) => {
      await compileApp();
      // Nothing in the app's folder (or above it) can bundle: NodejsFunction would fail without esbuild or Docker.
      expect(() => createRequire(join(app, 'package.json')).resolve('esbuild')).toThrow();
      const cdkOut = join(app, `cdk.out.${script.split('.').pop()}`);
      // How `cdk synth` runs an app: CDK_OUTDIR set, so the App synthesizes on exit.
      const env = { ...process.env, CDK_OUTDIR: cdkOut, CDK_DOCKER: '/bin/false' };
      await run(process.execPath, [script], { cwd: app, env });
      const packageRoot = join(app, 'node_modules/s3-ddb-import');
      await checkSynthesizedApp({ cdkOut, stack: 'Imports', packageRoot, handlers: TASK_HANDLER_FILES });
    },
    300_000,
  );

  it('runs the README CLI line with npx from the installed package', async () => {
    const line = (await readmeExample('Use the CLI', 'sh'))
      .split('\n')
      .find((l) => l.startsWith('npx s3-ddb-import local'));
    expect(line).toBeDefined();
    const [npx, ...args] = (line as string).split(/\s+/);
    await copyFile(join(REPO, 'sample/googlebooks-1gram-sample.tsv'), join(app, 'googlebooks-1gram-sample.tsv'));
    // The CLI starts its own engine, as on a user's machine, not the one this test run shares.
    const env: NodeJS.ProcessEnv = { ...process.env, npm_config_offline: 'true' };
    delete env.AWS_ENDPOINT_URL_DYNAMODB;
    delete env.AWS_ENDPOINT_URL_S3;
    const { stdout } = await run(npx as string, args, { cwd: app, env });
    expect(stdout).toMatch(
      /^SUCCEEDED: 1200 rows, 1200 written, 0 skipped, 0 rejected, 1 chunks into ngrams \(put\) in /m,
    );
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    expect(readme).toContain(
      'SUCCEEDED: 1200 rows, 1200 written, 0 skipped, 0 rejected, 1 chunks into ngrams (put) in',
    );
  });
});
