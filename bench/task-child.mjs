// Plain JavaScript on purpose: the child runs on bare `node`, with nothing but one handler's bundle loaded, so its
// peak RSS and CPU time are what that invocation's Lambda sandbox would hold (no tsx, no second copy of the SDK).
/**
 * One invocation of any Task's handler in a process of its own: reads the bundle's path, the event and the time left
 * from argv (JSON), runs the bundle's exported `handler` (its default wiring: clients from the SDK's configuration
 * chain, which the parent's AWS_ENDPOINT_URL_* point at the local servers), prints one JSON line: the handler's
 * output (or its error's name and message), the handler's CPU seconds and the process's peak RSS.
 */
const { bundle, event, remainingMs } = JSON.parse(process.argv[2]);
const { handler } = await import(bundle);
const deadline = Date.now() + remainingMs;
const context = { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
const before = process.cpuUsage();
const line = await handler(event, context).then(
  (output) => ({ output }),
  (error) => ({ error: { name: error.name, message: error.message } }),
);
const cpu = process.cpuUsage(before);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
process.stdout.write(`${JSON.stringify({ ...line, cpuSeconds, peakRssMB: process.resourceUsage().maxRSS / 1024 })}\n`);
