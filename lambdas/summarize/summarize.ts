import {
  executionOutputPrefix,
  type ImportCounts,
  type ImportSummary,
  type SummarizeEvent,
} from '../contract/workflow-payloads.js';
import { objectKey } from '../source/source-set.js';

/** Totals the Map's per-chunk counts into the execution's summary. */
export function summarize(event: SummarizeEvent, rejectsPrefix: string): ImportSummary {
  const { request, executionName, chunkResults } = event;
  const total = (field: 'rows' | 'written' | 'rejected') => chunkResults.reduce((sum, r) => sum + r[field], 0);
  const rejected = total('rejected');
  const prefix = executionOutputPrefix(rejectsPrefix, executionName);
  return {
    status: rejected > 0 ? 'SUCCEEDED_WITH_REJECTS' : 'SUCCEEDED',
    bucket: request.bucket,
    key: request.key ?? request.prefix ?? '',
    prefix: request.prefix ?? null,
    objects: event.sources.objects.length,
    table: request.table,
    rows: total('rows'),
    written: total('written'),
    rejected,
    chunks: chunkResults.length,
    rejectsKey: rejected > 0 ? `${prefix}/` : null,
    reportKey: `${prefix}/report.json`,
  };
}

/** The report's per-object totals: which object each row, written item and rejected row came from. */
export function totalsByObject(event: SummarizeEvent): (ImportCounts & { key: string; chunks: number })[] {
  const totals = event.sources.objects.map((_, index) => ({
    key: objectKey(event.sources, index),
    chunks: 0,
    rows: 0,
    written: 0,
    rejected: 0,
  }));
  for (const result of event.chunkResults) {
    const entry = totals[event.chunks[result.chunk].object];
    entry.chunks++;
    entry.rows += result.rows;
    entry.written += result.written;
    entry.rejected += result.rejected;
  }
  return totals;
}
