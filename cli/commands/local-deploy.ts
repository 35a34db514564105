import { join } from 'node:path';
import { defineCommand } from '../command-line/parse-command-line.js';
import { JSON_FLAG } from '../flags/request-flags.js';
import { deployJson, deployLines, deployToEngine } from '../local-deploy/index.js';
import { printFailure } from '../output/failure.js';
import { EXIT_OK, type Output } from '../output/summary.js';
import { cacheDir } from '../services/cache-dir.js';
import { startKeeper } from '../services/engine-keeper.js';
import { readKeptEngine, type KeptEngine } from '../services/kept-engine.js';
import { CLI_ENTRY } from './local-up.js';

/** The app's stack id (bin/app.ts), the one the cloud commands look up by default. */
const DEFAULT_STACK = 'S3DdbImport';

/** What `local deploy` was asked. */
interface LocalDeployCommand {
  readonly app?: string;
  readonly stack: string;
  readonly json: boolean;
}

/** The engine `local up` keeps, started now (as `local up` would) when none is up. */
async function keptOrStarted(output: Output): Promise<KeptEngine> {
  const kept = await readKeptEngine();
  if (kept) return kept;
  const started = await startKeeper(CLI_ENTRY());
  output.err(`no engine was up: started one at ${started.endpoint} (pid ${started.pid}; \`local down\` stops it)`);
  return started;
}

/** `s3-ddb-import local deploy`: the CDK app's stack, deployed into the kept local engine for a rehearsal. */
export const LOCAL_DEPLOY = defineCommand({
  name: 'local deploy',
  summary: 'deploy the CDK stack into the local engine (with the edits the engine needs), and print its outputs',
  positionals: [],
  flags: {
    app: {
      type: 'string',
      value: 'CMD|DIR',
      description: "the CDK app, as `cdk --app` takes it: a command or a cloud assembly folder; default: cdk.json's",
    },
    stack: { type: 'string', value: 'NAME', description: "the stack's id in the app", default: DEFAULT_STACK },
    json: {
      ...JSON_FLAG,
      description: 'print the stack, its outputs, the edits made and the variables as one JSON object',
    },
  },
  details: [
    'Uses the engine `local up` keeps (starting one when none is up), synthesizes the app, makes the edits the ' +
      'engine needs (docs/guides/rehearse-locally.md), bootstraps and deploys with the CDK CLI, then prints ' +
      '`export AWS_ENDPOINT_URL=...` lines and the outputs, so `start`, `status`, `rate`, `pause`, `resume` and ' +
      '`aws s3 cp` reach the stack: `eval "$(s3-ddb-import local deploy)"`. Exit 0, or 1 with a LocalDeployError ' +
      'naming the resource the engine refused.',
  ],
  input: ({ values }): LocalDeployCommand => ({
    ...(values.app ? { app: values.app } : {}),
    stack: values.stack ?? DEFAULT_STACK,
    json: values.json === true,
  }),
  run: async ({ app, stack, json }, output) => {
    try {
      const engine = await keptOrStarted(output);
      const deployment = await deployToEngine({
        target: engine,
        cwd: process.cwd(),
        ...(app ? { app } : {}),
        stack,
        assemblyDir: join(cacheDir(), 'local-deploy', stack),
        log: output.err,
      });
      output.err(`deployed ${stack} into the engine at ${engine.endpoint}`);
      if (json) output.out(JSON.stringify(deployJson(engine, deployment)));
      else for (const line of deployLines(engine, deployment)) output.out(line);
      return EXIT_OK;
    } catch (error) {
      return printFailure(error as Error, { what: 'local deploy', json }, output);
    }
  },
});
