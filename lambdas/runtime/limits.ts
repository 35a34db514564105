/**
 * Limits and defaults shared by the handlers, the CDK construct, the local runner and the CLI: one place
 * for each number, with where it comes from.
 */

/** Chunks imported at once (the Map's MaxConcurrency) unless configured otherwise. */
export const DEFAULT_MAX_CONCURRENCY = 40;

/** Lambda's hard timeout: 15 minutes = 900 s. */
export const MAX_LAMBDA_TIMEOUT_SECONDS = 900;

/** Default Lambda timeout of the preflight and import functions: the most Lambda allows. */
export const DEFAULT_LAMBDA_TIMEOUT_SECONDS = MAX_LAMBDA_TIMEOUT_SECONDS;

/** Target chunk size unless the request says otherwise; preflight grows it to bound the chunk count. */
export const DEFAULT_CHUNK_MIB = 64;
