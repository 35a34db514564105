import type { ConcurrencySource } from '../../lambdas/admission/import-concurrency.js';

/**
 * The control plane of local runs: there is no Lambda here, so no concurrency bounds the lanes (the ledger
 * still bounds each table's). Tests pass a stand-in with a quota instead.
 */
export const localConcurrency: ConcurrencySource = { importConcurrency: async () => null };
