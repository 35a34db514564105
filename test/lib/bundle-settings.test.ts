import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';
import type { TaskStateName } from '../../lib/workflow-tasks.js';
import { handlerBundlePath } from '../../cli/local-run/handler-bundles.js';

// A real bundling synth (esbuild, as `cdk synth` runs it), into a folder of its own; Docker is never a fallback.
vi.stubEnv('CDK_DOCKER', '/bin/false');
const outdir = mkdtempSync(join(tmpdir(), 's3-ddb-import-bundles-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

function synthFunctions(): Record<TaskStateName, NodejsFunction> {
  const stack = new S3DdbImportStack(new App({ outdir }), 'Bundles', { tableNames: ['ngrams'] });
  const { preflightFunction, importFunction, summarizeFunction } = stack.pipeline;
  const child = (id: string) => stack.pipeline.node.findChild(id) as NodejsFunction;
  const FindFailedChunk = child('FailedChunkFunction');
  const [MirrorScan, MirrorParts] = [child('MirrorScanFunction'), child('MirrorPartsFunction')];
  const tasks = { Preflight: preflightFunction, ImportChunk: importFunction, Summarize: summarizeFunction };
  return { ...tasks, FindFailedChunk, MirrorScan, MirrorParts };
}

/** The bundle in a function's staged asset: NodejsFunction writes the ESM handler as index.mjs. */
function assetBundle(fn: NodejsFunction): string {
  const asset = fn.node.findChild('Code') as Asset;
  return readFileSync(join(outdir, asset.assetPath, 'index.mjs'), 'utf8');
}

/** The bundle's last line names its map file, which is all that the different file names change. */
const withoutMapComment = (bundle: string) => bundle.replace(/\n\/\/# sourceMappingURL=index\.m?js\.map\n$/, '\n');

describe('handler bundles', () => {
  it('runs locally the very code each function deploys: dist/ equals the synthesized asset', () => {
    const functions = synthFunctions();
    for (const [task, fn] of Object.entries(functions) as [TaskStateName, NodejsFunction][]) {
      const local = readFileSync(handlerBundlePath(task), 'utf8');
      const deployed = assetBundle(fn);
      expect(local.endsWith('\n//# sourceMappingURL=index.js.map\n'), task).toBe(true);
      expect(deployed.endsWith('\n//# sourceMappingURL=index.mjs.map\n'), task).toBe(true);
      // Not toEqual: a 500 KB diff would drown the report; the length and first difference say enough.
      const [a, b] = [withoutMapComment(local), withoutMapComment(deployed)];
      const firstDifference = [...a].findIndex((char, i) => char !== b[i]);
      expect({ task, length: a.length, firstDifference }).toEqual({ task, length: b.length, firstDifference: -1 });
    }
  });
});
