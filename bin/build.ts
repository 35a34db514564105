import { BUILD_DIR } from '../lib/bundle-settings.js';
import { buildBundles } from './build-bundles.js';
import { buildConstruct } from './build-construct.js';

/**
 * `npm run build` (npm ci runs it as `prepare`, and so does `npm pack`): the handler and CLI bundles and the
 * compiled construct, into dist/.
 */
const started = Date.now();
const [{ inputs }] = await Promise.all([buildBundles(), buildConstruct()]);
process.stderr.write(
  `built ${BUILD_DIR}/ from ${inputs.length} source files and the construct in ${Date.now() - started} ms\n`,
);
