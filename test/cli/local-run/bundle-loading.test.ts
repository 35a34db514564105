import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NGRAM_TABLE_ARGS, lastJsonLine, runCli } from '../../e2e/cli-process.js';
import { uniqueName } from '../../e2e/harness.js';

const SAMPLE = fileURLToPath(new URL('../../../sample/googlebooks-1gram-sample.tsv', import.meta.url));
const LOAD_LOG = fileURLToPath(new URL('./fixtures/bundle-load-log.mjs', import.meta.url));

/** `local` on the sample as a user runs it, with the order of its bundle loads and writes (fixtures/bundle-load-log.mjs). */
async function loggedLocalRun(
  compileCache: string,
): Promise<{ code: number; summary: Record<string, unknown>; log: string[] }> {
  const logFile = join(await mkdtemp(join(tmpdir(), 'bundle-loads-')), 'log');
  const env = { BUNDLE_LOAD_LOG: logFile, NODE_OPTIONS: `--import ${LOAD_LOG}`, S3DDB_COMPILE_CACHE: compileCache };
  const run = await runCli(['local', SAMPLE, '--table', uniqueName('bundle-loads'), ...NGRAM_TABLE_ARGS], { env });
  const log = (await readFile(logFile, 'utf8')).trim().split('\n');
  return { code: run.code, summary: lastJsonLine(run.stdout), log };
}

describe('local CLI: handler bundles', () => {
  // With the compile cache (bundle-compile-cache.ts) and without it (Node's own loader).
  it.each(['on', 'off'])(
    'loads only the bundles of the tasks before the first write at the start, Summarize after the writes (compile cache %s)',
    async (compileCache) => {
      const { code, summary, log } = await loggedLocalRun(compileCache);

      expect(code).toBe(0);
      expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 1200, written: 1200 });
      const firstWrite = log.indexOf('write');
      expect(firstWrite).toBeGreaterThan(0);
      expect(log.slice(0, firstWrite).sort()).toEqual(['load import', 'load preflight']);
      // The Map's end is the first that needs Summarize; FindFailedChunk serves only a failed Map Run.
      expect(log.slice(firstWrite).filter((line) => line !== 'write')).toEqual(['load summarize']);
    },
  );
});
