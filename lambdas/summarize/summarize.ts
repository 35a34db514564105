import {
  chunkResultOf,
  countsOf,
  executionOutputPrefix,
  IMPORT_COUNT_NAMES,
  NO_IMPORT_COUNTS,
  type ChunkResult,
  type ImportCounts,
  type ImportSummary,
  type SummarizeEvent,
} from '../contract/workflow-payloads.js';
import { objectKey } from '../source/source-set.js';
import { DIFF_FOLDER } from '../sync-compare/diff-lines.js';

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
  return {
    status: rejected > 0 ? 'SUCCEEDED_WITH_REJECTS' : 'SUCCEEDED',
    bucket: request.bucket,
    key: request.key ?? request.prefix ?? '',
    prefix: request.prefix ?? null,
    objects: event.sources.objects.length,
    table: request.table,
    ...countsOf(total),
    mode: request.mode ?? 'put',
    dryRun: request.dryRun ?? false,
    chunks: chunkResults.length,
    rejectsKey: rejected > 0 ? `${prefix}/` : null,
    reportKey: `${prefix}/report.json`,
    ...diffKeyOf(request.dryRun, countsOf(total), prefix),
  };
}

/** Where a dry run that found differences wrote its diff files (sync-compare/diff-lines.ts), else nothing. */
function diffKeyOf(dryRun: boolean, counts: ImportCounts, prefix: string): { diffKey?: string } {
  const differences = counts.added + counts.changed + counts.deleted;
  return dryRun && differences > 0 ? { diffKey: `${prefix}/${DIFF_FOLDER}/` } : {};
}

/** The report's per-object totals: which object each row, written item and rejected row came from. */
export function totalsByObject(event: SummarizeEvent): (ImportCounts & { key: string; chunks: number })[] {
  const totals = event.sources.objects.map((_, index) => ({
    key: objectKey(event.sources, index),
    chunks: 0,
    ...NO_IMPORT_COUNTS,
  }));
  for (const result of chunkResultsOf(event)) {
    const entry = totals[event.chunks[result.chunk].object];
    entry.chunks++;
    for (const name of IMPORT_COUNT_NAMES) entry[name] += result[name];
  }
  return totals;
}
