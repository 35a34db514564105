import { differingAttributes } from '../attribute-values/attribute-equality.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { RetryCounts } from '../retry/retry-loop.js';
import type { DiffFile } from '../sync-compare/diff-file.js';
import type { DiffLine } from '../sync-compare/diff-lines.js';
import type { Item, ItemSink } from './item-sink.js';
import { keyOf } from './item-requests.js';
import { retryContext } from './request-writer.js';
import { keyText } from './sync-key-text.js';
import { RecentItems } from './sync-recent.js';
import { MAX_KEYS_PER_READ, readItems, type SendBatchGet } from './sync-reads.js';
import type { WriterOptions } from './writer-options.js';
import type { WriterStats } from './write-mode.js';

/** BatchGetItems in flight at once: as many as the BatchWriter's requests (batch-writer.ts DEFAULT_MAX_IN_FLIGHT). */
const READS_IN_FLIGHT = 16;

/** What becomes of an item sync found to differ: a write (an import), or a diff line and its write units (a dry run). */
export type SyncOutlet =
  | { readonly kind: 'write'; readonly sink: ItemSink & WriterStats }
  | { readonly kind: 'dry-run'; readonly diff: DiffFile; readonly unitsOf: (item: Item) => number };

export interface SyncWriterOptions extends WriterOptions {
  readonly keys: readonly KeyAttribute[];
  readonly read: SendBatchGet;
  readonly consistentRead: boolean;
  readonly outlet: SyncOutlet;
}

/**
 * `sync`'s writer: reads the item under each row's key (BatchGetItem, 100 keys) and compares it with the row's item
 * by DynamoDB's equality (attribute-values/attribute-equality.ts): equal, nothing is written (`unchanged`); no item,
 * the row's item is put (`added`); a different one, it is put whole (`changed`). Reads run several at once; their
 * items are compared in the order the rows came, so a key whose earlier row is still being read or written is
 * compared with that row's item (what the table holds once it lands: RecentItems), and its writes go in file order.
 * In a dry run nothing is written: each difference becomes a diff line and the write units its put would consume.
 */
export class SyncWriter implements ItemSink, WriterStats {
  added = 0;
  changed = 0;
  unchanged = 0;
  /** Rows replaced by a later row of their key before their key was read (the last row of a key wins). */
  replaced = 0;
  /** A dry run's write units: what the puts of the added and changed items would consume. */
  writeUnits = 0;
  readonly readRetries: RetryCounts = { afterError: 0, forLeftovers: 0 };
  private pending = new Map<string, Item>();
  private readonly recent = new RecentItems();
  private decided: Promise<void> = Promise.resolve();
  private readsInFlight = 0;
  private wakeReader: (() => void) | undefined;
  private failure: Error | undefined;

  constructor(private readonly options: SyncWriterOptions) {}

  /** Items acknowledged by the table: the added and changed items written so far. */
  get written(): number {
    return this.puts((sink) => sink.written);
  }

  /** A figure of the puts' writer; 0 in a dry run, which writes nothing. */
  private puts(figure: (sink: ItemSink & WriterStats) => number): number {
    const { outlet } = this.options;
    return outlet.kind === 'write' ? figure(outlet.sink) : 0;
  }

  /** The reads' retries and the puts'. */
  get throttledRetries(): number {
    return this.readRetries.afterError + this.puts((sink) => sink.throttledRetries);
  }

  get unprocessedRetries(): number {
    return this.readRetries.forLeftovers + this.puts((sink) => sink.unprocessedRetries);
  }

  /** The puts' requests allowed in flight (the reads go READS_IN_FLIGHT at most). */
  get inFlightLimit(): number {
    return this.puts((sink) => sink.inFlightLimit);
  }

  add(item: Item, key: string): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending.delete(key)) this.replaced++; // set again below: the key moves to its latest row's place
    this.pending.set(key, item);
    return this.pending.size >= MAX_KEYS_PER_READ ? this.dispatch() : undefined;
  }

  /** Reads and compares what is queued, waits for every read and write, and stores a dry run's diff file. */
  async flush(): Promise<void> {
    if (this.pending.size > 0) await this.dispatch();
    await this.decided;
    this.throwIfFailed();
    const { outlet } = this.options;
    if (outlet.kind === 'write') await outlet.sink.flush();
    else await outlet.diff.finish();
  }

  /** Starts the read of the queued keys once a read may start; their comparison waits for the batches before. */
  private async dispatch(): Promise<void> {
    while (this.readsInFlight >= READS_IN_FLIGHT) await new Promise<void>((wake) => (this.wakeReader = wake));
    this.throwIfFailed();
    const batch = this.pending;
    this.pending = new Map();
    this.readsInFlight++;
    const read = this.read([...batch.values()]);
    read.catch(() => {}); // handled where the comparison awaits it, after the batches before
    this.decided = this.decided
      .then(async () => this.compare(batch, await read))
      .catch((error: Error) => void (this.failure ??= error))
      .finally(() => {
        this.readsInFlight--;
        this.wakeReader?.();
      });
  }

  private read(items: Item[]): Promise<Item[]> {
    const { options } = this;
    const keys = items.map((item) => keyOf(item, options.keys));
    // The reads wait on the write-rate governor (beforeSend): a row is paced once, when its key is read.
    const retrying = retryContext(options);
    const { table, read: send, consistentRead } = options;
    return readItems(keys, { table, send, consistentRead, retrying, counts: this.readRetries });
  }

  /** Compares each row of a batch with the item its key holds, in row order, and hands on the differences. */
  private async compare(batch: Map<string, Item>, found: Item[]): Promise<void> {
    if (this.failure) return;
    const { keys } = this.options;
    const held = new Map(found.map((item) => [keyText(item, keys), item]));
    for (const [key, item] of batch) {
      const text = keyText(item, keys);
      const before = this.recent.has(text) ? this.recent.get(text) : held.get(text);
      this.recent.set(text, item);
      const attributes = before === undefined ? Object.keys(item).sort() : differingAttributes(item, before);
      if (attributes.length === 0) {
        this.unchanged++;
        continue;
      }
      const op = before === undefined ? 'add' : 'change';
      if (op === 'add') this.added++;
      else this.changed++;
      await this.handOn(item, key, { op, key: keyOf(item, keys), attributes });
    }
  }

  private async handOn(item: Item, key: string, line: DiffLine): Promise<void> {
    const { outlet } = this.options;
    if (outlet.kind === 'write') {
      await outlet.sink.add(item, key);
      return;
    }
    this.writeUnits += outlet.unitsOf(item);
    await outlet.diff.add(line);
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
