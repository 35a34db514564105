import {
  chunkResultOf,
  executionOutputPrefix,
  type ChunkResult,
  type ImportCounts,
  type ImportSummary,
  type SummarizeEvent,
} from '../contract/workflow-payloads.js';
import { objectKey } from '../source/source-set.js';
import { mirrorSummary } from './mirror-summary.js';

/** The Map's results as named counts (contract chunkResultOf); one that is neither shape fails the summary. */
export function chunkResultsOf(event: SummarizeEvent): ChunkResult[] {
  return event.chunkResults.map((value, index) => {
    const result = chunkResultOf(value);
    if (!result) throw new Error(`Map result ${index} is not a chunk's counts: ${JSON.stringify(value)}`);
    return result;
  });
}

/** Totals the Map's per-chunk counts into the execution's summary. */
export function summarize(event: SummarizeEvent, rejectsPrefix: string): ImportSummary {
  const { request, executionName } = event;
  const chunkResults = chunkResultsOf(event);
  const total = (field: keyof ImportCounts) => chunkResults.reduce((sum, r) => sum + r[field], 0);
  const rejected = total('rejected');
  const prefix = executionOutputPrefix(rejectsPrefix, executionName);
  const mirror = mirrorSummary(event, prefix);
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
    skipped: total('skipped'),
    deleted: total('deleted') + (mirror?.deleted ?? 0),
    writeUnits: total('writeUnits'),
    mode: request.mode ?? 'put',
    dryRun: request.dryRun ?? false,
    chunks: chunkResults.length,
    rejectsKey: rejected > 0 ? `${prefix}/` : null,
    reportKey: `${prefix}/report.json`,
    ...(mirror ? { mirror } : {}),
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
    skipped: 0,
    deleted: 0,
    writeUnits: 0,
  }));
  for (const result of chunkResultsOf(event)) {
    const entry = totals[event.chunks[result.chunk].object];
    entry.chunks++;
    entry.rows += result.rows;
    entry.written += result.written;
    entry.rejected += result.rejected;
    entry.skipped += result.skipped;
    entry.deleted += result.deleted;
    entry.writeUnits += result.writeUnits;
  }
  return totals;
}
