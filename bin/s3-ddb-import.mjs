#!/usr/bin/env node
// npm bin entry: runs the CLI's esbuild bundle, which runs the handlers' bundles (the code that deploys);
// nothing is transpiled at run time. `npm ci` builds them (`prepare`); a stale build is rebuilt first.
import { ensureFreshBundles } from './fresh-bundles.mjs';

ensureFreshBundles();
// The handler bundles are minified, as in Lambda (which runs them with --enable-source-maps too).
process.setSourceMapsEnabled(true);
await import('../dist/s3-ddb-import.mjs');
