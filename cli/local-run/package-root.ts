/** Where the CLI finds the workflow file and the handler bundles; lib/ needs the same answer, so it lives there. */
export { packageRoot } from '../../lib/package-root.js';
