import { describe, expect, it } from 'vitest';
import type { Item, ItemSink } from '../../../lambdas/write/item-sink.js';
import { SpreadingSink } from '../../../lambdas/write/spreading-sink.js';

/** Records what reaches the writer, in order. */
function recordingSink(): ItemSink & { added: { key: string; item: Item }[]; flushes: number } {
  const added: { key: string; item: Item }[] = [];
  const sink = {
    added,
    flushes: 0,
    written: 0,
    async add(item: Item, key: string) {
      added.push({ key, item });
    },
    async flush() {
      sink.flushes++;
    },
  };
  return sink;
}

const item = (pk: string, version: number): Item => ({ pk: { S: pk }, v: { N: String(version) } });

describe('SpreadingSink', () => {
  it('sends a window of a sorted file strided, so each 25-item batch draws from far-apart keys', async () => {
    const inner = recordingSink();
    const sink = new SpreadingSink(inner, 100);
    for (let i = 0; i < 100; i++) await sink.add(item(`k${String(i).padStart(3, '0')}`, i), `k${i}`);
    // 100 items, 4 batches of 25: stride 4, so the first batch is items 0, 4, 8, ..., 96.
    const firstBatch = inner.added.slice(0, 25).map((a) => Number(a.item.v.N));
    expect(firstBatch).toEqual(Array.from({ length: 25 }, (_, i) => i * 4));
    expect(inner.added.map((a) => a.key).sort()).toEqual(Array.from({ length: 100 }, (_, i) => `k${i}`).sort());
  });

  it('keeps the last row of a key repeated inside the window, whatever the reordering', async () => {
    const inner = recordingSink();
    const sink = new SpreadingSink(inner, 50);
    for (let i = 0; i < 120; i++) await sink.add(item(`k${i % 7}`, i), `k${i % 7}`);
    await sink.flush();
    // Each window sends each key once, its last version in that window; windows go out in file order.
    const lastSent = new Map<string, number>();
    for (const { key, item: sent } of inner.added) lastSent.set(key, Number(sent.v.N));
    for (let k = 0; k < 7; k++) expect(lastSent.get(`k${k}`)).toBe(119 - ((119 - k) % 7));
    expect(inner.flushes).toBe(1);
  });

  it('sends the partial window on flush', async () => {
    const inner = recordingSink();
    const sink = new SpreadingSink(inner, 2000);
    for (let i = 0; i < 30; i++) await sink.add(item(`k${i}`, i), `k${i}`);
    expect(inner.added).toHaveLength(0);
    await sink.flush();
    expect(inner.added).toHaveLength(30);
  });

  it('passes rows straight through to a writer that spreads them itself (the BatchWriter given the table keys)', async () => {
    const inner = Object.assign(recordingSink(), { spreadsItself: true });
    const sink = new SpreadingSink(inner, 100);
    for (let i = 0; i < 30; i++) await sink.add(item(`k${i}`, i), `k${i}`);
    expect(inner.added.map((a) => a.key)).toEqual(Array.from({ length: 30 }, (_, i) => `k${i}`));
    expect(sink.absorbed).toBe(0);
  });
});
