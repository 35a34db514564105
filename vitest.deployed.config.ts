import { defineConfig } from 'vitest/config';

/**
 * `npm run test:deployed`: the stack deployed into ministack with IAM enforcement on, driven by the CLI's cloud
 * commands (test/deployed/global-setup.ts). Not part of `npm test`, whose files end in `.test.ts`.
 */
export default defineConfig({
  test: {
    include: ['test/deployed/**/*.deployed.ts'],
    globalSetup: ['test/deployed/global-setup.ts'],
    // One stack serves every case, and the grants test redeploys it: one file, one worker, in order.
    fileParallelism: false,
    pool: 'forks',
    poolOptions: { forks: { minForks: 1, maxForks: 1 } },
    env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
    // An import through the deployed workflow takes tens of seconds on 2 cores; a redeploy several.
    testTimeout: 300_000,
    // The first run installs ministack into the cache dir; synth, bootstrap and deploy take under a minute.
    hookTimeout: 600_000,
  },
});
