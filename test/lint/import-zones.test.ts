import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { housePlugin } from '../../lint/import-zones.mjs';
import { packageRoot } from '../../lib/package-root.js';

const linter = new Linter({ configType: 'flat' });
const CONFIG: Linter.Config[] = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { house: housePlugin },
    rules: { 'house/import-zones': 'error' },
  },
];

/** The rule's messages for `code` as if it were the repository file `file`. */
function problems(file: string, code: string): string[] {
  return linter.verify(code, CONFIG, { filename: join(packageRoot(), file) }).map((m) => m.message);
}

describe('the import-zone rule (npm run lint)', () => {
  it.each([
    // Down the lambdas layers: a writer uses the retry loop; a handler any concept folder.
    ['lambdas/write/x.ts', "import { sendWithRetries } from '../retry/retry-loop.js';"],
    ['lambdas/preflight/x.ts', "import { checkTableSafety } from '../table-checks/table-safety-check.js';"],
    // Inside a handler's own folder, and down the top-level layers.
    ['lambdas/summarize/x.ts', "import { summarizeIo } from './summarize-io.js';"],
    ['cli/local-run/x.ts', "import type { TaskWiring } from '../../lambdas/wiring/wiring.js';"],
    ['lib/x.ts', "export { MAX_CHUNKS } from '../lambdas/contract/limits.js';"],
    // Tests and benches exercise anything, a handler's private modules too.
    ['test/lambdas/preflight/x.test.ts', "import { runPreflight } from '../../../lambdas/preflight/preflight.js';"],
    // Packages are not the rule's business.
    ['lambdas/contract/x.ts', "import { S3Client } from '@aws-sdk/client-s3';"],
  ])('lets %s import down: %s', (file, code) => {
    expect(problems(file, code)).toEqual([]);
  });

  it.each([
    // Upward: the retry layer reaching into the writers above it.
    ['lambdas/retry/x.ts', "import type { AdaptiveLimit } from '../write/adaptive-limit.js';", 'imports up into'],
    // Sideways: two folders of one layer, which is how loops start.
    ['lambdas/source/x.ts', "import { BATCH_SIZE } from '../write/write-units.js';", 'imports sideways into'],
    // Cross-handler, and the CLI into a handler's folder: a handler folder is private.
    ['lambdas/import/x.ts', "import { runPreflight } from '../preflight/preflight.js';", "handler's private folder"],
    ['cli/cloud/x.ts', "import { checkStateSize } from '../../lambdas/preflight/state-size.js';", 'private folder'],
    ['lambdas/contract/x.ts', "export * from '../summarize/summarize.js';", "handler's private folder"],
    // Up the top-level layers, by a dynamic import too.
    ['lambdas/wiring/x.ts', "const m = await import('../../cli/local-run/runner.js');", 'may not import cli/'],
    ['lib/x.ts', "import { runLocalImport } from '../cli/local-run/runner.js';", 'may not import cli/'],
    ['cli/commands/x.ts', "import { startStandIn } from '../../test/e2e/admission/stand-in.js';", 'only tests'],
    // Up the cli layers.
    ['cli/local-run/x.ts', "import { runCli } from '../commands/run-cli.js';", 'imports up into'],
    // A concept folder with no row: it must be given a place before anything imports it.
    ['lambdas/write/x.ts', "import { x } from '../nowhere/x.js';", 'is in no layer'],
  ])('fails when %s imports %s', (file, code, message) => {
    const found = problems(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(message);
  });
});

describe('the house layout', () => {
  // handler.ts and index.ts are entry conventions (a bundle's entry, a folder's face); every other name is unique,
  // so a file is found by its name alone.
  it('repeats no basename in lambdas/, cli/, lib/, bin/ and test/support/ but handler.ts and index.ts', () => {
    const files = execFileSync('git', ['ls-files', 'lambdas', 'cli', 'lib', 'bin', 'test/support'], {
      cwd: packageRoot(),
      encoding: 'utf8',
    });
    const names = files
      .split('\n')
      .filter(Boolean)
      .map((file) => basename(file));
    const repeated = names.filter((name, i) => names.indexOf(name) !== i && !['handler.ts', 'index.ts'].includes(name));
    expect(repeated).toEqual([]);
  });
});
