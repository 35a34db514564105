import type { BuildOptions } from 'esbuild';

/**
 * How every Lambda handler is bundled, in esbuild's own terms: `PipelineFunction` hands these to
 * NodejsFunction (which runs esbuild for `cdk synth`) and `npm run build` hands them to esbuild's API for
 * the local runner, so what runs locally is byte for byte what deploys (test/lib/bundle-settings.test.ts).
 * Only options both can express belong here; NodejsFunction always adds `--bundle --platform=node`.
 */

/**
 * esbuild's ESM output keeps the `require` calls of CommonJS dependencies (parts of the AWS SDK);
 * this banner gives them a real `require`.
 */
const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export const HANDLER_BUNDLE_SETTINGS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  /** The Lambda runtime (Node.js 22); the bundles also run on local Node 20.19+ (the e2e tests do). */
  target: 'node22',
  minify: true,
  sourcemap: true,
  // Line mapping is what stack traces need; leaving the sources out keeps the bundle small.
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_BANNER },
  // Bundle the SDK the tests ran with instead of whichever version the runtime ships.
  external: [],
} as const satisfies BuildOptions;

/** Where `npm run build` puts its output, relative to the package root (ignored by git, packed by `npm pack`). */
export const BUILD_DIR = 'dist';

/**
 * Written beside each handler bundle as package.json. Lambda loads a `.js` handler as an ES module only when the
 * nearest package.json says `"type": "module"`
 * (https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html#nodejs-commonjs-es-modules), and installed
 * from npm, the bundle's folder is the whole of the function's asset (lib/pipeline-function.ts).
 */
export const HANDLER_PACKAGE_JSON = `${JSON.stringify({ type: 'module' })}\n`;

/**
 * The bundle of a handler file, relative to the package root: `lambdas/import/handler.ts` ->
 * `dist/lambdas/import/index.js`. NodejsFunction names its ESM file index.mjs; `.js` is ESM just the same
 * (HANDLER_PACKAGE_JSON beside it says so), and vitest would re-transform any `.mjs` outside node_modules
 * instead of letting Node load it. The two files differ only in their `sourceMappingURL` comment.
 */
export function handlerBundleFile(handlerFile: string): string {
  const folder = handlerFile.slice(0, handlerFile.lastIndexOf('/'));
  return `${BUILD_DIR}/${folder}/index.js`;
}
