import { BUILD_DIR } from '../lib/bundle-settings.js';
import { buildBundles } from './build-bundles.js';

/** `npm run build` (npm ci runs it as `prepare`): the handler and CLI bundles, into dist/. */
const started = Date.now();
const { inputs } = await buildBundles();
process.stderr.write(`built ${BUILD_DIR}/ from ${inputs.length} source files in ${Date.now() - started} ms\n`);
