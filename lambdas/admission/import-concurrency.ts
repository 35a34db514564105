/**
 * What preflight asks of the AWS control plane, behind one small interface: the deployed handler answers
 * from Lambda (lambda-concurrency.ts); the local runner, which has none, answers that there is no bound.
 * Which imports run, and the lanes they hold, is the ledger's to say (ledger.ts): one DynamoDB read, where
 * listing and describing running executions cost Step Functions calls that grew with every import at once.
 */

/** The Lambda concurrency the import function can use. */
export interface ImportConcurrency {
  /** The import function's reserved concurrency, or null when it has none. */
  readonly reserved: number | null;
  /** The account's unreserved concurrency in this Region (what functions without a reservation share). */
  readonly unreserved: number | null;
}

export interface ConcurrencySource {
  /** The import function's concurrency, or null where imports do not run on Lambda (local runs). */
  importConcurrency(): Promise<ImportConcurrency | null>;
}
