import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The staging half of `npm run build:jsii` (bin/build-jsii.ts): a jsii-shaped project in a folder of its own, made
 * from the repository's sources, so the repository's own package stays an ES module and its tests run the sources.
 */

/** The jsii entry: the construct's surface for other languages. */
export const JSII_ENTRY = 'jsii/index.ts';

/**
 * Every source module the entry reaches (lib/, and the lambdas/ modules that lib/ imports types and checks from),
 * as TypeScript resolves them: a module another engineer adds to lib/ comes along without a list to keep.
 */
export function entrySources(root: string): string[] {
  const program = ts.createProgram([join(root, JSII_ENTRY)], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  return program
    .getSourceFiles()
    .map((file) => relative(root, file.fileName))
    .filter((file) => !file.startsWith('..') && !file.includes('node_modules') && !file.endsWith('.d.ts'));
}

/** What `import.meta.url` becomes in the CommonJS that jsii emits: the same file URL, from `__filename`. */
const COMMONJS_MODULE_URL = "require('node:url').pathToFileURL(__filename).href";

/**
 * A module's text with each `import.meta.url` expression (code, not text inside a string: the handlers' ESM banner
 * in lib/bundle-settings.ts names it too) replaced by its CommonJS equivalent, found by TypeScript's own parser.
 */
export function toCommonJsSource(fileName: string, text: string): string {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const spans: Array<[number, number]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && node.name.text === 'url') {
      spans.push([node.getStart(file), node.getEnd()]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return spans.reduceRight((out, [start, end]) => out.slice(0, start) + COMMONJS_MODULE_URL + out.slice(end), text);
}

/** Copies the entry's sources into `stage`, at the same relative paths, rewritten for CommonJS. */
export async function stageSources(root: string, stage: string): Promise<string[]> {
  const files = entrySources(root);
  for (const file of files) {
    const target = join(stage, file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, toCommonJsSource(file, await readFile(join(root, file), 'utf8')));
  }
  return files;
}

/**
 * What the construct reads at synth time besides its code: the handler bundles (`npm run build`'s dist/lambdas, the
 * same files the npm package deploys, so a Python app needs no esbuild and no Docker) and the workflow file; and
 * what a registry shows: the README and the licence. The repository's node_modules is linked in for jsii to resolve
 * aws-cdk-lib, constructs and the type-only imports (esbuild's, the SDK's) against.
 */
export async function stageAssets(root: string, stage: string): Promise<void> {
  for (const path of ['dist/lambdas', 'statemachine/import.asl.json', 'README.md', 'LICENSE']) {
    await cp(join(root, path), join(stage, path), { recursive: true });
  }
  await symlink(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
}
