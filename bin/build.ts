import { BUILD_DIR } from '../lib/bundle-settings.js';
import { buildBundles } from './build-bundles.js';

/**
 * `npm run build` (npm ci and npm pack run it as `prepare`): the handler and CLI bundles, into dist/. `npm pack`
 * also compiles the construct first (`prepack`: bin/build-construct.ts).
 */
const started = Date.now();
const { inputs } = await buildBundles();
process.stderr.write(`built ${BUILD_DIR}/ from ${inputs.length} source files in ${Date.now() - started} ms\n`);
