import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Bundling the three functions with esbuild takes seconds; the CLI and tsx start-up about as long. */
const SYNTH_TIMEOUT_MS = 5 * 60 * 1000;

describe('cdk synth', () => {
  it(
    'synthesizes the app from cdk.json without Docker',
    () => {
      const out = mkdtempSync(join(tmpdir(), 's3-ddb-import-synth-'));
      try {
        // CDK_DOCKER=/bin/false makes any fallback to Docker bundling fail loudly instead of pulling images.
        const result = spawnSync('npx', ['cdk', 'synth', '--quiet', '-o', out], {
          cwd: REPO_ROOT,
          env: { ...process.env, CDK_DOCKER: '/bin/false' },
          encoding: 'utf8',
          timeout: SYNTH_TIMEOUT_MS,
        });
        expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
        expect(existsSync(join(out, 'S3DdbImport.template.json'))).toBe(true);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    SYNTH_TIMEOUT_MS + 10_000,
  );
});
