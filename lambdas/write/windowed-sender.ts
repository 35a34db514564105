import { fullJitterDelay, sleep as realSleep } from '../retry/backoff.js';
import { BATCH_SIZE } from '../retry/batch-retry.js';
import type { Item, RowMark } from './item-sink.js';
import { PartitionWindow, type WindowEntry } from './partition-window.js';
import { KEYS_AHEAD, MAX_LOOK_AHEAD, MAX_SPAN_BYTES, MAX_SPAN_ROWS, MIN_LOOK_AHEAD } from './look-ahead.js';
import { TablePace } from './table-pace.js';
import { WakeUp } from './wake-up.js';
import { DEADLINE_DRAIN_MS } from './stop-margin.js';
import { sendWindowBatch, type WindowedSenderOptions } from './window-batch.js';

export type { WindowedSenderOptions } from './window-batch.js';

/**
 * The BatchWriter's path when it knows the table's partition key (every put and delete import does): rows wait in a
 * PartitionWindow sized to how many rows share a partition key (look-ahead.ts), a batch takes one row of each key in
 * turn, and rows a reply refused go back to the window, their key waiting a partition's refill, while the freed
 * slot carries other keys. A reply that wrote nothing keeps its batch on the retry ladder (see `attempt`). Once
 * replies refuse many rows, the lane sends at the rate the table takes (table-pace.ts) rather than as fast as its
 * requests in flight allow, and keys whose rows were just refused go after the others (PartitionWindow.take).
 *
 * @example
 * ```ts
 * // Through the BatchWriter: given the table's keys, it sends by this path.
 * const writer = new BatchWriter({ table: 'ngrams', send, keys: [{ name: 'ngram', type: 'S', role: 'HASH' }] });
 * ```
 */
export class WindowedSender {
  failure: Error | undefined;
  /** The first row not written when a flush stopped early (ItemSink.heldFrom). */
  heldFrom: RowMark | undefined;
  /** Every row came with its place in the file, so a stopping lane can resume from its first unwritten row. */
  private rewindable = true;
  /** When the deadline came (the sender's clock), once it has. */
  private deadlineAt: number | undefined;
  private readonly window: PartitionWindow;
  private readonly hashKey: string;
  private readonly now: () => number;
  /** Signalled when a request settles. */
  private readonly replied = new WakeUp();
  /** The rate the table takes, learnt from its refusals (table-pace.ts). */
  private readonly pace: TablePace;
  /** A request has been sent: from then on the lane reads its window full before sending. */
  private sentAny = false;

  constructor(private readonly options: WindowedSenderOptions) {
    this.window = new PartitionWindow(options.combine);
    this.hashKey = options.keys.find((key) => key.role === 'HASH')!.name;
    this.now = options.now ?? (() => performance.now());
    this.pace = new TablePace(this.now());
    const { stopping } = options;
    const atDeadline = () => void (this.deadlineAt ??= this.now());
    if (stopping?.aborted) atDeadline();
    else stopping?.addEventListener('abort', atDeadline, { once: true });
  }

  /** Holds a row (`at`: its place in the file); returns a promise when the window is full (the caller waits). */
  add(item: Item, key: string, at?: RowMark): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    // A row without its partition key fails at DynamoDB; here it only needs a window slot.
    const value = item[this.hashKey] as Item[string] | undefined;
    const partitionKey = value?.S ?? value?.N ?? JSON.stringify(value);
    if (!at) this.rewindable = false;
    this.window.add({ key, partitionKey, item, ...(at ? { at } : {}) });
    this.options.tally.replaced = this.window.combined;
    return this.full() ? this.pump(false) : undefined;
  }

  /**
   * Sends every held row and waits until each is written (or the writer failed). Once the lane halts (a pause, its
   * deadline) it sends nothing more, waits for the requests in flight, and sets `heldFrom` to the first row not
   * written, counting only the rows before it; without every row's place in the file it sends every row as before.
   */
  async flush(): Promise<void> {
    await this.pump(true);
    if (this.failure) throw this.failure;
    if (!this.halted()) return;
    while (this.options.slots.inFlight.size > 0) await this.replied.wait();
    // Read again after the waits: a reply may have failed the writer meanwhile (TypeScript keeps the narrowing above).
    const late = this.failure as Error | undefined;
    if (late) throw late;
    const { span } = this.window;
    this.heldFrom = span.first();
    if (this.heldFrom) [this.options.tally.written, this.options.tally.replaced] = [span.written, span.combined];
  }

  /**
   * The lane reads no further: the window holds KEYS_AHEAD partition keys it could send now (at least MIN_LOOK_AHEAD
   * rows), or MAX_LOOK_AHEAD rows, or the lane has read its span's bound past its first unwritten row; before its
   * first request, once it holds a request's rows.
   */
  private full(): boolean {
    const { window } = this;
    // The first request goes as soon as it can be full: a lane's first write does not wait for its window, which
    // on a big file's many lanes sharing the CPU took seconds (docs/performance.md: time to the first write).
    if (!this.sentAny && window.size >= BATCH_SIZE) return true;
    const { span } = window;
    if (window.size >= MAX_LOOK_AHEAD || span.length >= MAX_SPAN_ROWS || span.bytes >= MAX_SPAN_BYTES) return true;
    return window.size >= MIN_LOOK_AHEAD && window.readyKeys(this.now()) >= KEYS_AHEAD;
  }

  /**
   * The lane sends no more: paused (or its lease lost) at once; at its deadline once it has drained for
   * DEADLINE_DRAIN_MS and written at least its first row (each invocation moves the checkpoint on).
   */
  private halted(): boolean {
    if (!this.rewindable) return false;
    if (this.options.halt?.() === true) return true;
    const { deadlineAt } = this;
    if (deadlineAt === undefined || this.now() - deadlineAt < DEADLINE_DRAIN_MS) return false;
    const { span } = this.window;
    return span.written + span.combined > 0;
  }

  /** Sends batches while the window is full (flushing: until it and the requests in flight are empty), not halted. */
  private async pump(flushing: boolean): Promise<void> {
    const { slots } = this.options;
    const busy = () => (flushing ? this.window.size > 0 || slots.inFlight.size > 0 : this.full());
    while (!this.failure && !this.halted() && busy()) {
      if (slots.inFlight.size >= slots.limit.value) {
        await this.replied.wait();
        continue;
      }
      // One reading of the clock for the take and the wait below: read twice, a key could stop backing off between
      // them, so the take passed it over and the wait found nothing backing off, and waited for a reply with none in
      // flight, forever (a lane stalled with its last rows held: docs/performance.md).
      const now = this.now();
      // Past the deadline the lane drains in file order: what it writes before it halts moves its checkpoint on. Once
      // it has read all it will, the keys holding the most rows go first: given in turn, a partition whose keys had
      // been refused stayed behind, and its last rows went alone at its own rate after the others' (issue 37: 0.92-0.99
      // of capacity on a file sorted with 40 rows per key at P = 32, 0.996-0.999 so). While it reads on, in turn: a key
      // that finishes makes room for new keys (most rows first throughout, 10 rows per key at P = 32 fell to 0.87-0.93).
      const order = this.deadlineAt !== undefined && this.rewindable ? 'fileOrder' : flushing ? 'mostFirst' : 'inTurn';
      const batch = this.window.take(BATCH_SIZE, now, order);
      // A short batch (the other keys back off or are in flight) waits for a reply while one may come.
      if (batch.length === BATCH_SIZE || (batch.length > 0 && (flushing || slots.inFlight.size === 0))) {
        // At the lane's rate (table-pace.ts), for the rows it carries: a short last batch does not wait for 25 rows'
        // worth. Past the deadline the lane drains unpaced, as short as DEADLINE_DRAIN_MS is.
        const paced = this.deadlineAt === undefined ? this.pace.waitMs(batch.length, now) : 0;
        if (paced > 0) {
          this.window.restore(batch);
          await Promise.race([this.replied.wait(), (this.options.retrying.sleep ?? realSleep)(paced)]);
          continue;
        }
        this.sendBatch(batch);
        continue;
      }
      this.window.restore(batch);
      await this.changeOrReady(now);
    }
    if (this.failure) throw this.failure;
  }

  /** Waits for a reply, or for the first backing-off key to be ready (as of `now`, when the take found none). */
  private changeOrReady(now: number): Promise<void> {
    const readyIn = this.window.nextReadyAt(now) - now;
    if (Number.isFinite(readyIn)) {
      return Promise.race([this.replied.wait(), (this.options.retrying.sleep ?? realSleep)(Math.max(1, readyIn))]);
    }
    // Nothing backs off, so only a reply can change what may go: with none in flight, none would ever come.
    if (this.options.slots.inFlight.size === 0) {
      throw new Error(`the write window holds ${this.window.size} rows and none can be sent (a writer bug)`);
    }
    return this.replied.wait();
  }

  private sendBatch(batch: WindowEntry[]): void {
    this.sentAny = true;
    const { window, now, delay, pace } = this;
    pace.spend(batch.length, now());
    const sent = sendWindowBatch(batch, { ...this.options, window, now, delay, pace, halted: () => this.halted() });
    this.options.slots.track(
      sent,
      (error) => void (this.failure ??= error),
      () => this.replied.signal(),
    );
  }

  private readonly delay = (rung: number) =>
    fullJitterDelay(this.options.retrying.retry, rung, this.options.retrying.random);
}
