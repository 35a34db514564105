import { describe, expect, it } from 'vitest';
import { keepLater } from '../../../lambdas/write/combine-rows.js';
import { PartitionWindow, type WindowEntry } from '../../../lambdas/write/partition-window.js';

/** A row of partition key `pk` and sort key `sk`, version `v`. */
const row = (pk: string, sk: number, v = 0): WindowEntry => ({
  key: `${pk}|${sk}`,
  partitionKey: pk,
  item: { pk: { S: pk }, sk: { N: String(sk) }, v: { N: String(v) } },
});
const keysOf = (entries: readonly WindowEntry[]) => entries.map((entry) => entry.key);
/** A back-off of 100 ms per rung, from 100: easy to step over with `now`. */
const delay = (rung: number) => 100 * (rung + 1);

/** A window holding a file sorted by partition key: a, a, a, b, b, b, c, c, c. */
function sortedWindow() {
  const window = new PartitionWindow(keepLater);
  for (const pk of ['a', 'b', 'c']) for (let sk = 0; sk < 3; sk++) window.add(row(pk, sk));
  return window;
}

describe('PartitionWindow', () => {
  it('takes one row of each partition key in turn, so a sorted file still spreads a batch over its keys', () => {
    const window = sortedWindow();
    expect(keysOf(window.take(4, 0))).toEqual(['a|0', 'b|0', 'c|0', 'a|1']);
    expect(window.size).toBe(5);
  });

  it('holds a key back after the table refused it, and sends its refused row first once the back-off ends', () => {
    const window = sortedWindow();
    const sent = window.take(3, 0); // a|0, b|0, c|0
    window.settled(sent, [sent[0]], 0, delay); // a|0 refused: key a waits 100 ms
    expect(keysOf(window.take(3, 50))).toEqual(['b|1', 'c|1', 'b|2']);
    // Back from its back-off, a's refused row goes after c's, whose partition took its rows (the next test).
    expect(keysOf(window.take(2, 100))).toEqual(['c|2', 'a|0']);
  });

  it('sends keys whose rows the table refused last after the others, until a row of theirs is written', () => {
    const window = new PartitionWindow(keepLater);
    for (const pk of ['a', 'b', 'c', 'd']) for (let sk = 0; sk < 3; sk++) window.add(row(pk, sk));
    const sent = window.take(4, 0); // a|0, b|0, c|0, d|0
    window.settled(sent, [sent[0], sent[1]], 0, delay); // a and b refused, c and d written
    // After the back-off, a and b go only once c and d have no rows left to send...
    const second = window.take(6, 100);
    expect(keysOf(second)).toEqual(['c|1', 'd|1', 'c|2', 'd|2', 'a|0', 'b|0']);
    // ...and once a row of theirs is written they go in turn again: before e, a key read after them.
    window.settled(second, [], 100, delay);
    window.add(row('e', 0));
    expect(keysOf(window.take(3, 200))).toEqual(['a|1', 'b|1', 'e|0']);
  });

  it('does not hold back a key whose whole request was refused (the retry ladder paces it)', () => {
    const window = sortedWindow();
    const sent = window.take(3, 0);
    window.settled(sent, sent, 0, delay); // a stall: every row refused, each key one rung up
    expect(keysOf(window.take(3, 100))).toEqual(['a|0', 'b|0', 'c|0']);
  });

  it('once the lane has read all it will, gives the seats to the keys holding the most rows first', () => {
    const window = new PartitionWindow(keepLater);
    const rows = [
      ['a', 3],
      ['b', 1],
      ['c', 2],
    ] as const;
    for (const [pk, count] of rows) for (let sk = 0; sk < count; sk++) window.add(row(pk, sk));
    const first = window.take(2, 0, 'mostFirst');
    expect(keysOf(first)).toEqual(['a|0', 'c|0']);
    window.settled(first, [], 0, delay);
    // a holds 2, b and c 1 each: a first, then b, which held 1 row before c came down to 1.
    expect(keysOf(window.take(2, 0, 'mostFirst'))).toEqual(['a|1', 'b|0']);
    // In turn, the same window would have sent a and b first: the key read first, then the next.
    const inTurn = new PartitionWindow(keepLater);
    for (const [pk, count] of rows) for (let sk = 0; sk < count; sk++) inTurn.add(row(pk, sk));
    expect(keysOf(inTurn.take(2, 0))).toEqual(['a|0', 'b|0']);
  });

  it('does not send a row while an earlier row of its key is in flight', () => {
    const window = new PartitionWindow(keepLater);
    window.add(row('a', 0, 1));
    const first = window.take(25, 0);
    window.add(row('a', 0, 2)); // the same key again, read while the first is in flight
    expect(window.take(25, 0)).toEqual([]);
    window.settled(first, [], 0, delay);
    expect(window.take(25, 0).map((entry) => entry.item.v.N)).toEqual(['2']);
  });

  it("combines a refused row with a later row of its key by the mode's rule, so the later row still wins", () => {
    const window = new PartitionWindow(keepLater);
    window.add(row('a', 0, 1));
    const first = window.take(25, 0);
    window.add(row('a', 0, 2));
    window.settled(first, first, 0, delay); // version 1 refused, version 2 held
    expect(window.combined).toBe(1);
    expect(window.size).toBe(1);
    expect(window.take(25, 1000).map((entry) => entry.item.v.N)).toEqual(['2']);
  });

  it('climbs a rung per refusal in a row and starts again from the foot once a row of the key is written', () => {
    const window = new PartitionWindow(keepLater);
    for (let sk = 0; sk < 3; sk++) window.add(row('a', sk));
    let now = 0;
    const refuseOnce = () => {
      const sent = window.take(1, (now += 1000));
      return window.settled(sent, sent, now, delay);
    };
    expect([refuseOnce(), refuseOnce(), refuseOnce()]).toEqual([1, 2, 3]);
    const written = window.take(1, (now += 1000));
    window.settled(written, [], now, delay);
    expect(refuseOnce()).toBe(1);
  });

  it("waits the ladder's foot without climbing when the reply wrote other rows", () => {
    const window = new PartitionWindow(keepLater);
    for (let sk = 0; sk < 3; sk++) window.add(row('a', sk));
    let now = 0;
    for (let i = 0; i < 3; i++) {
      window.add(row('b', i));
      const sent = window.take(2, (now += 1000)); // a row of a and one of b; only a's is refused
      const refusedA = sent.filter((entry) => entry.partitionKey === 'a');
      expect(window.settled(sent, refusedA, now, delay)).toBe(0);
      expect(window.nextReadyAt(now)).toBe(now + delay(0));
    }
  });

  it('counts a key refused by several requests in flight together once', () => {
    const window = new PartitionWindow(keepLater);
    for (let sk = 0; sk < 2; sk++) window.add(row('a', sk));
    window.add(row('b', 0));
    const first = window.take(1, 0); // a|0
    const second = window.take(2, 0); // b|0, a|1
    window.settled(first, first, 10, delay);
    expect(window.settled(second, [second[1]], 20, delay)).toBe(1); // a already backing off until 110
    expect(window.nextReadyAt(20)).toBe(110);
  });
});

describe('PartitionWindow ready keys (what the lane reads ahead for)', () => {
  it('counts the partition keys with rows held, less those backing off after a refusal', () => {
    const window = sortedWindow(); // keys a, b, c
    expect(window.readyKeys(0)).toBe(3);
    const sent = window.take(3, 0); // a|0, b|0, c|0
    window.settled(sent, [sent[0]], 0, delay); // a refused: backing off until 100
    expect(window.readyKeys(50)).toBe(2);
    expect(window.readyKeys(100)).toBe(3);
  });

  it('does not count a key whose rows are all in flight or written', () => {
    const window = new PartitionWindow(keepLater);
    window.add(row('a', 0));
    window.add(row('b', 0));
    window.take(1, 0);
    expect(window.readyKeys(0)).toBe(1);
  });
});

describe('PartitionWindow read span (where a stopping lane resumes)', () => {
  /** Row `sk` of key `pk`, version v, read as the file's row `at`. */
  const placed = (pk: string, sk: number, v: number, at: number): WindowEntry => ({
    ...row(pk, sk, v),
    at: { offset: at * 10, line: at + 1, rows: at, rejected: 0, bytes: 10 },
  });

  it('resumes from the first unwritten row, the written rows before it counted', () => {
    const window = new PartitionWindow(keepLater);
    for (let i = 0; i < 4; i++) window.add(placed(`p${i}`, 0, 0, i));
    const sent = window.take(4, 0);
    window.settled(sent, [sent[1]], 0, delay); // rows 0, 2, 3 written; row 1 refused
    expect(window.span.first()?.rows).toBe(1);
    expect([window.span.written, window.span.length]).toEqual([1, 3]);
  });

  it('keeps the earlier place when a refused row takes in a later row of its key read meanwhile', () => {
    const window = new PartitionWindow(keepLater);
    window.add(placed('a', 0, 1, 0));
    window.add(placed('b', 0, 1, 1));
    const sent = window.take(2, 0);
    window.add(placed('a', 0, 2, 2)); // the same key again, while the first is in flight
    window.settled(sent, [sent[0]], 0, delay); // row 0 refused, row 1 written
    expect(window.combined).toBe(1);
    expect(window.span.first()?.rows).toBe(0); // not 2: row 0 is not written yet
    const retried = window.take(25, 1000);
    expect(retried.map((entry) => [entry.at?.rows, entry.item.v.N])).toEqual([[0, '2']]); // the later row wins
    window.settled(retried, [], 1000, delay);
    expect(window.span.first()).toBeUndefined();
    expect([window.span.written, window.span.combined]).toEqual([2, 1]);
  });
});
