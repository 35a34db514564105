import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHUNKS_MAP_LABEL } from '../../../lib/workflow-tasks.js';
import { ASL_PATH, type StateEvent } from '../../../cli/local-run/runner.js';
import { expectTableMatches, ngramImport, runWithEvents } from '../faults/fixture.js';

interface MapState {
  readonly Type: string;
  readonly Label?: string;
  readonly ToleratedFailurePercentage?: number;
  readonly ItemsPath?: string;
  readonly ItemProcessor: { readonly ProcessorConfig: { readonly Mode: string; readonly ExecutionType?: string } };
}
const definition = JSON.parse(readFileSync(ASL_PATH, 'utf8')) as { States: Record<string, MapState> };

describe('the chunks Map', () => {
  it('is a Distributed Map of STANDARD child executions over $.chunks, labelled, failing on any failed chunk', () => {
    expect(definition.States.ImportChunks).toMatchObject({
      Type: 'Map',
      ItemsPath: '$.chunks',
      Label: CHUNKS_MAP_LABEL, // the label the state machine's RedriveExecution grant names
      ToleratedFailurePercentage: 0,
      ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' } },
    });
  });

  it('is what a local run goes through: one iteration per chunk, each running ImportChunk, the table equal to the file', async () => {
    // 20,000 rows (~0.65 MB) in 0.1 MiB chunks: about 7 chunks, 3 at once.
    const { table, request, rows } = await ngramImport(20_000, 0.1);
    const stateEvents: StateEvent[] = [];
    const { summary, events } = await runWithEvents(request, {
      maxConcurrency: 3,
      onStateEvent: (e) => stateEvents.push(e),
    });

    const chunks = events.filter((e) => e.type === 'preflight').at(-1)!;
    expect(chunks.type === 'preflight' && chunks.chunks).toBeGreaterThanOrEqual(5);
    const iterations = stateEvents.filter((e) => e.type === 'MapIterationStarted');
    expect(new Set(iterations.map((e) => e.parentState?.name))).toEqual(new Set(['ImportChunks']));
    expect(iterations.map((e) => e.index).sort((a, b) => a! - b!)).toEqual([...Array(summary.chunks).keys()]);
    const entered = stateEvents.filter((e) => e.type === 'StateEntered').map((e) => e.state?.name);
    expect(entered).toContain('ImportChunks');
    expect(entered.filter((name) => name === 'ImportChunk').length).toBeGreaterThanOrEqual(summary.chunks);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  });
});
