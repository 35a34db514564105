// Plain JavaScript on purpose: the child runs on bare `node`, with nothing but the import handler's bundle
// loaded, so its peak RSS is what a Lambda invocation's would be (no tsx, no second copy of the SDK).
/**
 * One import invocation in a process of its own, so its CPU time and peak RSS are its own: reads the
 * handler bundle's path and a job from argv (JSON), runs the bundle's exported `handler` (the code that
 * deploys, with its default wiring: clients from the SDK's configuration chain, which the parent's
 * AWS_ENDPOINT_URL_* point at the local servers) with a Lambda-like context, prints one JSON line.
 */
const { bundle, event, timeoutMs } = JSON.parse(process.argv[2]);
const { handler } = await import(bundle);
const deadline = Date.now() + timeoutMs;
const context = { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
const before = process.cpuUsage();
const progress = await handler(event, context);
const cpu = process.cpuUsage(before);
process.stdout.write(
  `${JSON.stringify({
    rows: progress.rows,
    written: progress.written,
    finished: progress.next === null,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
