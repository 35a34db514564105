import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { createDynamoDbClient, createS3Client, type ClientOptions } from './clients.js';
import { readLambdaConfig, type LambdaConfig } from './config.js';

/**
 * What a handler is built from: its SDK clients and its configuration. The exported `handler` of each
 * Lambda uses the default wiring (clients from the SDK's configuration chain, config from the function's
 * environment); local mode and tests build their own and pass it to the handler factories, so nothing is
 * configured through global state.
 */
export interface Wiring {
  readonly s3: S3Client;
  readonly dynamodb: DynamoDBClient;
  readonly config: LambdaConfig;
}

/** A wiring with fresh keep-alive clients. */
export function createWiring(options: ClientOptions & { readonly config?: LambdaConfig } = {}): Wiring {
  return {
    s3: createS3Client(options),
    dynamodb: createDynamoDbClient(options),
    config: options.config ?? readLambdaConfig(),
  };
}

let defaultWiring: Wiring | undefined;

/**
 * The deployed handler: built on its first invocation with one wiring per container (SDK clients are
 * created once and kept warm, as Powertools advises), from the function's environment.
 */
export function withDefaultWiring<A extends unknown[], R>(factory: (wiring: Wiring) => (...args: A) => Promise<R>) {
  let built: ((...args: A) => Promise<R>) | undefined;
  return (...args: A): Promise<R> => {
    built ??= factory((defaultWiring ??= createWiring()));
    return built(...args);
  };
}
