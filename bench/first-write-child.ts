/**
 * One local import in a process of its own, so the bench can time it and stop it once its first item has landed
 * (a 2 GiB import would take hours on the local engine). argv: the checkout whose runner and bundles to use (this
 * one, or BENCH_BASELINE_ROOT for today's code), then the request as JSON. Prints the summary as one JSON line.
 */
const [root, requestJson] = process.argv.slice(2);
const { runLocalImport } = (await import(
  `${root}/cli/local-run/runner.ts`
)) as typeof import('../cli/local-run/runner.js');
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
const summary = await runLocalImport(JSON.parse(requestJson), { maxConcurrency: 40 });
process.stdout.write(`${JSON.stringify(summary)}\n`);
