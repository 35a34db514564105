import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts the local engine once for the whole run; see the file for how workers find them.
    globalSetup: ['test/global-setup.ts'],
    // The runner imports the handler bundles (dist/lambdas, built by the global setup): Node loads them as
    // Lambda does, instead of vite re-transforming 1.5 MB of bundled code in every worker.
    server: { deps: { external: [/\/dist\/lambdas\//] } },
    // Integration tests import real files into the local engine; a few take tens of seconds on 2 cores.
    testTimeout: 120_000,
    // Handler logs are JSON lines for CloudWatch; in tests only warnings and errors are worth reading.
    env: { POWERTOOLS_LOG_LEVEL: 'WARN' },
    // The very first run installs the engine (seconds; more on a loaded machine) inside the global setup.
    hookTimeout: 600_000,
    // Forks, not threads: handlers keep per-container SDK clients in module state, like Lambda does.
    pool: 'forks',
    poolOptions: {
      // 2 cores, and the engine needs CPU too: more than 2 test files at once only thrash.
      forks: { minForks: 1, maxForks: 2 },
    },
  },
});
