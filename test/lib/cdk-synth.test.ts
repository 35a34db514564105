import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Bundling the three functions with esbuild takes seconds; the CLI and tsx start-up about as long. */
const SYNTH_TIMEOUT_MS = 5 * 60 * 1000;

describe('cdk synth', () => {
  it(
    'synthesizes the app from cdk.json without Docker',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 's3-ddb-import-synth-'));
      try {
        // Asynchronous on purpose: a synchronous spawn blocks the worker, and on a busy machine vitest's
        // worker RPC (60 s) times out while the synth is still running.
        // CDK_DOCKER=/bin/false makes any fallback to Docker bundling fail loudly instead of pulling images.
        const result = await promisify(execFile)('npx', ['cdk', 'synth', '--quiet', '-o', out], {
          cwd: REPO_ROOT,
          env: { ...process.env, CDK_DOCKER: '/bin/false' },
          encoding: 'utf8',
          timeout: SYNTH_TIMEOUT_MS,
          maxBuffer: 16 * 1024 * 1024,
        }).catch((error: Error & { stdout?: string; stderr?: string }) => {
          throw new Error(`cdk synth failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
        });
        expect(existsSync(join(out, 'S3DdbImport.template.json')), `${result.stdout}\n${result.stderr}`).toBe(true);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    SYNTH_TIMEOUT_MS + 10_000,
  );
});
