import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { LambdaClient } from '@aws-sdk/client-lambda';
import type { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDbWriteTransport } from '../dynamodb-transport/write-transport.js';
import { WRITE_MODE_TABLE, type WriteModeTable } from '../write/write-modes.js';
import { SOURCE_FORMATS, type SourceFormatTable } from '../formats/record-formats.js';
import { CHUNK_LAYOUTS, type ChunkLayoutTable } from '../chunk-layouts/chunk-layouts.js';
import { expectBucketOwners, nameRegionRedirects } from './bucket-owner.js';
import { createDynamoDbClient, createS3Client, type ClientOptions } from './sdk-clients.js';
import { readLambdaConfig, resolveLambdaConfig, type LambdaConfig } from '../environment/config.js';
import type { ConcurrencySource } from '../admission/import-concurrency.js';
import { LambdaConcurrency } from '../admission/lambda-concurrency.js';
import { ImportLedger } from '../admission/ledger.js';
import { withWiring } from './with-wiring.js';
import { deployTimeConcurrency } from '../environment/deploy-time-concurrency.js';

/**
 * What a handler is built from: its SDK clients and its configuration. The exported `handler` of each
 * Lambda uses the default wiring (clients from the SDK's configuration chain, config from the function's
 * environment); local mode and tests build their own and pass it to the handler factories, so nothing is
 * configured through global state.
 */
export interface Wiring {
  readonly s3: S3Client;
  readonly dynamodb: DynamoDBClient;
  /**
   * The DynamoDB write transport: the four calls of the write modes (BatchWriteItem, the import's hot call, among
   * them) on their own lean path over the DynamoDB client's configuration.
   */
  readonly writeTransport: DynamoDbWriteTransport;
  /** The write modes a request's `mode` names (write/write-modes.ts WRITE_MODE_TABLE; tests add their own). */
  readonly writeModes: WriteModeTable;
  /**
   * The source formats a request's `format.type` names (formats/record-formats.ts SOURCE_FORMATS; tests add their
   * own): preflight checks and plans by it, ImportChunk reads by it. It travels here because local runs build the
   * handler bundles from the wiring, and a bundle never sees a table edited in the caller's process.
   */
  readonly sourceFormats: SourceFormatTable;
  /**
   * The chunk layouts the formats name (chunk-layouts/chunk-layouts.ts CHUNK_LAYOUTS; tests add their own), each with
   * its traits, planner and importer: preflight plans by it, ImportChunk reads by it. It travels here as formats do.
   */
  readonly chunkLayouts: ChunkLayoutTable;
  readonly config: LambdaConfig;
  /** The Lambda concurrency the imports share, for preflight's lanes. */
  readonly control: ConcurrencySource;
  /** The ledger of running imports: lanes, leases, live settings (on the wiring's DynamoDB client). */
  readonly ledger: ImportLedger;
}

/**
 * A wiring with fresh keep-alive clients. The DynamoDB clients' request timeout is the config's
 * `write.requestTimeoutMs`, so the import's stop margin and the client agree. Its concurrency source is Lambda's
 * (a client made here, called only by preflight); the local runner replaces it with its own.
 */
export function createWiring(options: ClientOptions & { readonly config?: LambdaConfig } = {}): Wiring {
  const config = options.config ?? readLambdaConfig();
  // Resolved once here for the clients; the handlers resolve the same config for their own settings.
  const settings = resolveLambdaConfig(config);
  const { write } = settings;
  const region = options.region ? { region: options.region } : {};
  const dynamodb = createDynamoDbClient({ ...options, dynamodbRequestTimeoutMs: write.requestTimeoutMs });
  const s3 = createS3Client(options);
  // Every call on a source with a known owner names it; a bucket of another Region fails by name.
  expectBucketOwners(s3, config.sourceBuckets ?? []);
  nameRegionRedirects(s3);
  return {
    s3,
    dynamodb,
    writeTransport: new DynamoDbWriteTransport(dynamodb, write.requestTimeoutMs),
    writeModes: WRITE_MODE_TABLE,
    sourceFormats: SOURCE_FORMATS,
    chunkLayouts: CHUNK_LAYOUTS,
    config,
    control: deployTimeConcurrency(
      settings.importReservedConcurrency,
      new LambdaConcurrency(new LambdaClient(region), settings.importFunctionName),
    ),
    ledger: new ImportLedger(dynamodb, settings.ledgerTable),
  };
}

/**
 * What every Task's handler factory is given (the local runner builds one for all): the wiring, and the Step
 * Functions client FindFailedChunk reads Map Runs with. Only FindFailedChunk's function creates that client
 * (failed-chunk/find-failed-chunk-io.ts): in the default wiring it would add its SDK to every bundle.
 */
export interface TaskWiring extends Wiring {
  readonly sfn: SFNClient;
}

let defaultWiring: Wiring | undefined;

/**
 * The deployed handler of a function that uses the default wiring: one per container, from the function's
 * environment (with-wiring.ts).
 * @example
 * export const handler = withDefaultWiring(createImportHandler);
 */
export function withDefaultWiring<A extends unknown[], R>(factory: (wiring: Wiring) => (...args: A) => Promise<R>) {
  return withWiring(factory, () => (defaultWiring ??= createWiring()));
}
