import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { LEDGER_KEY_ATTRIBUTE } from '../../lambdas/admission/ledger-items.js';
import { acknowledge } from '../nag-acknowledgments.js';
import type { PipelineFunctions } from './pipeline-functions.js';
import { addSettings } from './pipeline-environment.js';

/**
 * The ledger of running imports (lambdas/admission/ledger.ts): lanes held, a lease and the live settings of
 * each import. Transient state, a few small items: on demand, destroyed with the stack, nothing to back up.
 */
export function createLedgerTable(scope: Construct): dynamodb.Table {
  const table = new dynamodb.Table(scope, 'Ledger', {
    partitionKey: { name: LEDGER_KEY_ATTRIBUTE, type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  acknowledge(
    table,
    'AwsSolutions-DDB3',
    'the ledger holds only the lanes and leases of imports running now; a restore would bring back stale leases',
  );
  return table;
}

/** What `ImportLedger.admit` calls (GetItem, Scan, the transaction's Put, Update and Delete). */
const ADMISSION_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Scan',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;

/**
 * Each function gets the ledger's name and exactly the calls it makes (lambdas/admission/ledger.ts). Admission
 * and release are TransactWriteItems, whose Put, Update and Delete need the PutItem, UpdateItem and DeleteItem
 * actions (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html):
 * - preflight admits: GetItem (the lanes item; its own item after a repeated ask), Put + Update (takes lanes with
 *   its item), Scan (the holders, when the lanes are full) and Delete + Update (holders whose lease ran out);
 * - import renews its lease and reads the live settings: UpdateItem; and, when its import holds no lanes (a chunk a
 *   redrive re-runs after ReleaseLanes gave them back, lambdas/import/chunk-admission.ts), admits as preflight does;
 * - summarize (and ReleaseLanes) releases: GetItem (its item), Delete + Update (gives the lanes back).
 */
export function grantLedger(table: dynamodb.Table, { preflight, importer, summarize }: PipelineFunctions): void {
  addSettings([preflight, importer, summarize], { ledgerTable: table.tableName });
  for (const admits of [preflight, importer]) table.grant(admits, ...ADMISSION_ACTIONS);
  table.grant(summarize, 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem');
}
