import type { CombineRows } from './combine-rows.js';
import type { Item, RowMark } from './item-sink.js';
import { HeldTiers } from './held-tiers.js';
import { ReadSpan, type Carrier } from './read-span.js';

/** One row held in the window: its key's canonical text, its partition key's text, the item, its place in the file. */
export interface WindowEntry extends Carrier {
  readonly key: string;
  readonly partitionKey: string;
  item: Item;
  /** Its row's place in the file (the earliest row it carries). @default - unknown: the lane cannot rewind to it */
  readonly at?: RowMark;
}

/**
 * The order `take` gives seats in: `inTurn`, each key in turn, while the lane reads on (a key that finishes makes
 * room for new keys of the file, which spreads the window over the partitions); `mostFirst`, the keys holding the
 * most rows first, once it has read all it will (they then finish together); `fileOrder`, the oldest rows first, for
 * a lane draining before it halts (what it writes moves its checkpoint on).
 */
export type TakeOrder = 'inTurn' | 'mostFirst' | 'fileOrder';

/** The rows of one partition key not yet sent, oldest first (a head index: no O(n) shift). */
interface KeyQueue {
  readonly partitionKey: string;
  entries: WindowEntry[];
  head: number;
  /** The partition key's next send waits until then (ms on the writer's clock): its last items were refused. */
  coolUntil: number;
  /** Refusals in a row with none of its items written between: the retry ladder's rung. */
  refusals: number;
  /** Its rows in flight: the queue (and its rung) is kept until they settle. */
  inFlight: number;
  /**
   * A reply that wrote other rows refused one of its rows, and none has been written since: its partition is short of
   * capacity while others may not be, so `take` sends the other keys' rows first.
   */
  partlyRefused: boolean;
}

/** Rows a key's queue holds (not in flight). */
const heldIn = (queue: KeyQueue) => queue.entries.length - queue.head;

/**
 * The rows a lane has read but not yet sent, by partition key: what lets the BatchWriter keep every partition busy.
 * A batch takes one row from each partition key, in the take's order (TakeOrder), so a file sorted by key still
 * sends 25 keys, spread over the partitions, in one request. It skips a key whose rows the table refused until its
 * back-off ends, and a row whose key has a row in flight (so a key's rows are applied in file order). Rows of one key
 * held together are combined by the mode's rule, as in a batch. Pure: time comes in as `now`.
 */
export class PartitionWindow {
  /** Rows held (not in flight). */
  size = 0;
  /** Rows combined into a later row of their key while held, so never sent on their own. */
  combined = 0;
  private readonly queues = new Map<string, KeyQueue>();
  /**
   * The queues holding rows, by how many: built at the first take of the most rows first (a lane's flush) and kept
   * from then on, so a lane reading on does not keep it for every row.
   */
  private tiers: HeldTiers<KeyQueue> | undefined;
  /** The held entry of each key (a later row of the key combines into it). */
  private readonly held = new Map<string, WindowEntry>();
  /** Keys with a row in flight: their held row waits for it. */
  private readonly inFlight = new Set<string>();
  /** The rows read from the first unwritten one on, in file order (rows with a place in the file). */
  readonly span = new ReadSpan();
  /** Partition keys with rows held. */
  private heldKeys = 0;
  /** Queues backing off (some may have ended: `readyKeys` forgets those). */
  private readonly cooling = new Set<KeyQueue>();

  constructor(private readonly combine: CombineRows) {}

  /** Holds a row read from the file. */
  add(entry: WindowEntry): void {
    const earlier = this.held.get(entry.key);
    if (entry.at) this.span.push(entry.at, earlier ?? entry, !earlier);
    if (earlier) {
      earlier.item = this.combine(earlier.item, entry.item);
      this.combined++;
      return;
    }
    this.held.set(entry.key, entry);
    const queue = this.queueOf(entry.partitionKey);
    const before = heldIn(queue);
    if (before === 0) this.heldKeys++;
    queue.entries.push(entry);
    this.tiers?.moved(queue, before, before + 1);
    this.size++;
  }

  /**
   * Partition keys with rows held whose partition is not backing off: the keys a request could carry now. A key
   * whose rows the table refused does not count, so a lane whose window fills with a hot partition's rows reads on.
   */
  readyKeys(now: number): number {
    let cool = 0;
    for (const queue of this.cooling) {
      if (queue.coolUntil <= now) this.cooling.delete(queue);
      else if (queue.head < queue.entries.length) cool++;
    }
    return this.heldKeys - cool;
  }

  /** Up to `max` rows to send now, in `order`, each key at most once; they are in flight until `settled`. */
  take(max: number, now: number, order: TakeOrder = 'inTurn'): WindowEntry[] {
    if (order === 'fileOrder') return this.takeOldest(max, now);
    const batch: WindowEntry[] = [];
    // Keys whose partition refused their rows last go only when the others leave seats: a paced lane (table-pace.ts)
    // has fewer seats than keys, and given to every key in turn they leave a partition with few keys in the window
    // short while a busy one refuses (issue 37: 0.87-0.94 of capacity at P = 32, 10 rows per key, without this).
    for (let progress = true, skipRefused = true; progress && batch.length < max;) {
      progress = false;
      const taken = new Set<KeyQueue>();
      for (const queue of order === 'mostFirst' ? this.tiersOf().mostFirst() : this.queues.values()) {
        if (batch.length >= max) break;
        if (taken.has(queue) || queue.coolUntil > now || heldIn(queue) === 0) continue;
        if (skipRefused && queue.partlyRefused) continue;
        if (this.inFlight.has(queue.entries[queue.head].key)) continue;
        batch.push(this.takeHead(queue));
        taken.add(queue);
        progress = true;
      }
      // To the end of the turn (a Map keeps insertion order): the next take starts with the keys not taken.
      for (const queue of taken) {
        this.queues.delete(queue.partitionKey);
        this.queues.set(queue.partitionKey, queue);
      }
      if (skipRefused && !progress) [skipRefused, progress] = [false, true];
    }
    return batch;
  }

  /** The tiers, built from the queues in turn (so ties keep their turn) when first asked for. */
  private tiersOf(): HeldTiers<KeyQueue> {
    if (!this.tiers) {
      this.tiers = new HeldTiers<KeyQueue>();
      for (const queue of this.queues.values()) this.tiers.moved(queue, 0, heldIn(queue));
    }
    return this.tiers;
  }

  /** The oldest held rows that may go now (the head of their key's queue, the key not backing off). */
  private takeOldest(max: number, now: number): WindowEntry[] {
    const batch: WindowEntry[] = [];
    for (const carrier of this.span.carriers()) {
      if (batch.length >= max) break;
      const entry = carrier as WindowEntry;
      if (this.held.get(entry.key) !== entry || this.inFlight.has(entry.key)) continue;
      const queue = this.queueOf(entry.partitionKey);
      if (queue.coolUntil > now || queue.entries[queue.head] !== entry) continue;
      batch.push(this.takeHead(queue));
    }
    return batch;
  }

  /** The head of `queue` goes in flight. */
  private takeHead(queue: KeyQueue): WindowEntry {
    const entry = queue.entries[queue.head];
    const before = heldIn(queue);
    if (++queue.head === queue.entries.length) [queue.entries, queue.head, this.heldKeys] = [[], 0, this.heldKeys - 1];
    this.tiers?.moved(queue, before, before - 1);
    this.held.delete(entry.key);
    this.inFlight.add(entry.key);
    queue.inFlight++;
    this.size--;
    return entry;
  }

  /**
   * The reply to rows taken: `refused` go back to the front of their key's queue and the key backs off. After a reply
   * that wrote nothing (`stalled`: the table took none of the request) the key climbs a rung of the ladder, as a batch
   * did in its slot; after a reply that wrote other rows it waits `delay(0)`, a partition's refill, without climbing,
   * and a key with a row written starts again from the foot; a key refused by a reply that wrote others is marked
   * `partlyRefused` until one of its rows is written. Returns the highest rung a refused key is on now.
   */
  settled(
    sent: readonly WindowEntry[],
    refused: readonly WindowEntry[],
    now: number,
    delay: (rung: number) => number,
    stalled = refused.length === sent.length,
  ) {
    const refusedKeys = new Set(refused.map((entry) => entry.partitionKey));
    const refusedRows = new Set(refused);
    for (let i = refused.length - 1; i >= 0; i--) this.putBack(refused[i]);
    for (const entry of sent) {
      this.inFlight.delete(entry.key);
      const queue = this.queueOf(entry.partitionKey);
      queue.inFlight--;
      if (refusedRows.has(entry)) continue;
      entry.written = true;
      queue.partlyRefused = false;
      queue.refusals = 0; // some of its rows went in: the table takes this key
    }
    this.span.advance();
    let highest = 0;
    for (const partitionKey of refusedKeys) {
      const queue = this.queueOf(partitionKey);
      // Rows of one key refused by several requests in flight together climb one rung, not one per reply.
      if (queue.coolUntil <= now) queue.coolUntil = now + (stalled ? delay(queue.refusals++) : delay(0));
      if (!stalled) queue.partlyRefused = true;
      highest = Math.max(highest, queue.refusals);
      this.cooling.add(queue);
    }
    for (const entry of sent) this.dropIfIdle(entry.partitionKey, this.queueOf(entry.partitionKey));
    return highest;
  }

  /** Rows taken but not sent after all: back where they were, no back-off. */
  restore(taken: readonly WindowEntry[]): void {
    for (let i = taken.length - 1; i >= 0; i--) {
      const entry = taken[i];
      this.inFlight.delete(entry.key);
      this.queueOf(entry.partitionKey).inFlight--;
      this.putBack(entry);
    }
  }

  /** When the first cooling key may go again (Infinity when none is cooling with rows held). */
  nextReadyAt(now: number): number {
    let next = Infinity;
    for (const queue of this.queues.values()) {
      if (queue.head < queue.entries.length && queue.coolUntil > now) next = Math.min(next, queue.coolUntil);
    }
    return next;
  }

  /**
   * A row back to the front of its key's queue. A later row of its key held meanwhile is combined into it (not it into
   * the later one), so the combined row keeps the earlier place in the file: the place a stopping lane resumes from.
   */
  private putBack(entry: WindowEntry): void {
    const queue = this.queueOf(entry.partitionKey);
    const before = heldIn(queue);
    if (before === 0) this.heldKeys++;
    const later = this.held.get(entry.key);
    if (later) {
      entry.item = this.combine(entry.item, later.item);
      later.into = entry;
      queue.entries.splice(queue.entries.indexOf(later, queue.head), 1);
      this.combined++;
      this.size--;
    }
    if (queue.head > 0) queue.entries[--queue.head] = entry;
    else queue.entries.unshift(entry);
    this.tiers?.moved(queue, before, heldIn(queue));
    this.held.set(entry.key, entry);
    this.size++;
  }

  private queueOf(partitionKey: string): KeyQueue {
    let queue = this.queues.get(partitionKey);
    if (!queue)
      this.queues.set(
        partitionKey,
        (queue = { partitionKey, entries: [], head: 0, coolUntil: 0, refusals: 0, inFlight: 0, partlyRefused: false }),
      );
    return queue;
  }

  /** Forgets a key with nothing held and nothing in flight (the window's memory stays bounded by its rows). */
  private dropIfIdle(partitionKey: string, queue: KeyQueue): void {
    if (queue.head < queue.entries.length || queue.inFlight > 0) return;
    this.queues.delete(partitionKey);
  }
}
