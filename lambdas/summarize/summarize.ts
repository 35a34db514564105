import { executionOutputPrefix, type ImportSummary, type SummarizeEvent } from '../request/workflow-payloads.js';

/** Totals the Map's per-chunk counts into the execution's summary. */
export function summarize(event: SummarizeEvent, rejectsPrefix: string): ImportSummary {
  const { request, executionName, chunkResults } = event;
  const total = (field: 'rows' | 'written' | 'rejected') => chunkResults.reduce((sum, r) => sum + r[field], 0);
  const rejected = total('rejected');
  const prefix = executionOutputPrefix(rejectsPrefix, executionName);
  return {
    status: rejected > 0 ? 'SUCCEEDED_WITH_REJECTS' : 'SUCCEEDED',
    bucket: request.bucket,
    key: request.key,
    table: request.table,
    rows: total('rows'),
    written: total('written'),
    rejected,
    chunks: chunkResults.length,
    rejectsKey: rejected > 0 ? `${prefix}/` : null,
    reportKey: `${prefix}/report.json`,
  };
}
