import { ImportLedger } from '../../lambdas/admission/ledger.js';
import { createDynamoDbClient } from '../../lambdas/wiring/sdk-clients.js';
import { CloudCommandError, type CloudClients } from '../cloud/aws/clients.js';
import { DEFAULT_STACK_NAME, STACK_OUTPUTS, readStackOutputs } from '../cloud/aws/stack-outputs.js';
import { DEFAULT_LEDGER_TABLE, readLambdaConfig } from '../../lambdas/environment/config.js';
import { listRunning, runningDir } from '../local-run/running-registry.js';
import type { LedgerTarget } from './live-args.js';

/** A ledger to look in, and how to name it in a message. */
export interface LedgerPlace {
  readonly ledger: ImportLedger;
  readonly label: string;
  /** A local process may be stopping as we ask: its ledger is then skipped, not an error. */
  readonly local: boolean;
}

/** The keys `local` signs with (the engine takes any); the caller's own may be absent or a real session's. */
const LOCAL_KEYS = { accessKeyId: 's3ddbimport', secretAccessKey: 's3ddbimport-local-secret' };
const LOCAL_REGION = 'us-east-1';

/** The ledgers to look in: the running local processes', or the deployed stack's one. */
export async function ledgersFor(
  target: LedgerTarget,
  clients: () => CloudClients,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LedgerPlace[]> {
  return target.local ? localLedgers(env) : [await deployedLedger(clients(), target)];
}

/**
 * AWS_ENDPOINT_URL_DYNAMODB when set (the DynamoDB that `local` then uses too), else the local engine of each
 * `local` and `local watch` that runs now, as registered in `<cache dir>/running`.
 */
export async function localLedgers(env: NodeJS.ProcessEnv = process.env): Promise<LedgerPlace[]> {
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB?.trim();
  if (endpoint) {
    const credentials =
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
        : LOCAL_KEYS;
    const dynamodb = createDynamoDbClient({
      dynamodbEndpoint: endpoint,
      region: env.AWS_REGION || LOCAL_REGION,
      credentials,
    });
    const label = `${endpoint} (AWS_ENDPOINT_URL_DYNAMODB)`;
    // The table `local` itself uses there: LEDGER_TABLE, else the default.
    const table = readLambdaConfig(env).ledgerTable ?? DEFAULT_LEDGER_TABLE;
    return [{ ledger: new ImportLedger(dynamodb, table), label, local: true }];
  }
  const running = await listRunning(runningDir(env));
  return running.map((entry) => {
    const dynamodb = createDynamoDbClient({
      dynamodbEndpoint: entry.dynamodbEndpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_KEYS,
    });
    return {
      ledger: new ImportLedger(dynamodb, entry.ledgerTable),
      label: `local process ${entry.pid} (${entry.dynamodbEndpoint})`,
      local: true,
    };
  });
}

/** The stack's ledger table (its LedgerTableName output), or the one --ledger-table names. */
export async function deployedLedger(
  clients: CloudClients,
  target: Extract<LedgerTarget, { local: false }>,
): Promise<LedgerPlace> {
  const table = target.ledgerTable ?? (await stackLedgerTable(clients, target.stack ?? DEFAULT_STACK_NAME));
  return { ledger: new ImportLedger(clients.dynamodb, table), label: `ledger table ${table}`, local: false };
}

async function stackLedgerTable(clients: CloudClients, stack: string): Promise<string> {
  const { ledgerTableName } = await readStackOutputs(clients.cloudformation, stack);
  if (ledgerTableName) return ledgerTableName;
  throw new CloudCommandError(
    `stack ${JSON.stringify(stack)} has no ${STACK_OUTPUTS.ledgerTableName} output: it was deployed before running ` +
      'imports could be changed; deploy this version (npx cdk deploy), or give --ledger-table T',
  );
}
