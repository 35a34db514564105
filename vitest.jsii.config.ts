import { defineConfig } from 'vitest/config';

/**
 * `npm run test:jsii`: the construct from Python and Java, as their users run it (test/jsii/*.jsii.ts), after
 * `npm run build:jsii` wrote the wheel and the jar. Not part of `npm test`: the build and the registries' installs
 * take minutes, and neither needs the local engine.
 */
export default defineConfig({
  test: {
    include: ['test/jsii/**/*.jsii.ts'],
    // Each file installs its language's packages (once; cached after) and synthesizes two apps.
    testTimeout: 120_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
