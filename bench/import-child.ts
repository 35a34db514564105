/**
 * One import invocation in a process of its own, so its CPU time and peak RSS are its own: reads a
 * job from argv (JSON), runs the import handler's esbuild bundle (the code that deploys, as the local
 * runner does) with a Lambda-like context and the default wiring, prints one JSON line.
 */
import { createWiring } from '../lambdas/runtime/wiring.js';
import { loadHandlerFactories } from '../local/handler-bundles.js';
import type { ImportChunkEvent } from '../lambdas/request/workflow-payloads.js';
import { lambdaContext } from '../local/runner.js';

const { event, timeoutMs } = JSON.parse(process.argv[2]) as { event: ImportChunkEvent; timeoutMs: number };
const handler = (await loadHandlerFactories()).ImportChunk(createWiring());
const before = process.cpuUsage();
const progress = await handler(event, lambdaContext(timeoutMs));
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
