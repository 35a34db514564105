import type { TestProject } from 'vitest/node';
import { buildBundles } from '../bin/build-bundles.js';
import { applyServiceEnv, startLocalServices } from '../cli/services/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's local engine listens; also in the AWS_* env of every worker. */
    localServices: {
      dynamodbEndpoint: string;
      s3Endpoint: string;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string };
    };
  }
}

/**
 * Builds the handler and CLI bundles (dist/) that the runner and the CLI execute, on every run, so no test
 * ever runs bundles older than the sources (esbuild takes a second or two, hidden behind the servers' start).
 * Starts the local engine (ministack) once for the whole test run (installing it on first use)
 * and stops it afterwards. Workers are forked after this runs and inherit `process.env`, so the
 * AWS_ENDPOINT_URL_* variables set here reach every SDK client the tests and handlers create;
 * `inject('localServices')` gives the same values to tests that build clients by hand.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Node 20 is this project's floor (CI too); the SDK's notice that 2027 releases need Node 22 would
  // otherwise repeat in this process and in every worker.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const [built, started] = await Promise.allSettled([
    buildBundles(),
    startLocalServices({ log: (line) => process.stderr.write(`[local services] ${line}\n`) }),
  ]);
  if (started.status === 'rejected') throw started.reason;
  const services = started.value;
  if (built.status === 'rejected') {
    await services.stop();
    throw built.reason;
  }
  applyServiceEnv(services);
  const { dynamodbEndpoint, s3Endpoint, region, credentials } = services;
  project.provide('localServices', { dynamodbEndpoint, s3Endpoint, region, credentials });
  return () => services.stop();
}
