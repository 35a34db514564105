#!/usr/bin/env node
// npm bin entry: runs the CLI's esbuild bundle, which runs the handlers' bundles (the code that deploys);
// nothing is transpiled at run time. In a checkout `npm ci` builds them (`prepare`) and a stale build is rebuilt
// first; installed from npm, the package holds the bundles `npm pack` built and no sources (fresh-bundles.mjs).
import { ensureFreshBundles } from './fresh-bundles.mjs';
import { noteNodeVersion } from './node-version.mjs';

noteNodeVersion();
ensureFreshBundles();
// Source maps stay off unless asked for (NODE_OPTIONS=--enable-source-maps): Node reads and parses every
// bundle's map as it loads it (0.1-0.25 s of each start on this machine), and only an internal error's stack
// trace needs them; errors in the input say what and where without one. Lambda has them on (pipeline-function.ts).
await import('../dist/s3-ddb-import.mjs');
