import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** A DynamoDB item as the writers send it. */
export type Item = Record<string, AttributeValue>;

/**
 * Where a row stands in its file, as the importer counts it: the checkpoint a stopping lane resumes from when this row
 * is its first unwritten one, with the invocation's counts before it.
 */
export interface RowMark {
  /** The row's checkpoint: its record's first byte and line (Parquet: its row group's first byte, its row number). */
  readonly offset: number;
  readonly line: number;
  /** Rows, and rejected rows among them, this invocation handled before this one. */
  readonly rows: number;
  readonly rejected: number;
  /**
   * The record's size in bytes (Parquet: its row group's decoded bytes per row): what the read-ahead's byte bound
   * counts.
   */
  readonly bytes: number;
}

/** Where items go: the BatchWriter, or anything with its shape (the SpreadingSink wraps one). */
export interface ItemSink {
  /**
   * Queues one item under its key (the key's canonical text: a repeated key keeps the last item), `at` its place in
   * the file when the caller knows it. Returns a promise when the caller must wait for it before adding more (a batch
   * it completed waits to be sent).
   */
  add(item: Item, key: string, at?: RowMark): Promise<void> | undefined;
  /** Sends what is queued and waits until it is written (or, see `heldFrom`, until the lane stops). */
  flush(): Promise<void>;
  /** Items acknowledged by the table so far. */
  readonly written: number;
  /**
   * True when the sink already spreads a key-sorted file over the partitions itself (the BatchWriter given the
   * table's keys): a SpreadingSink in front then passes rows straight through. @default false
   */
  readonly spreadsItself?: boolean;
  /**
   * After a `flush` that stopped sending because the lane is stopping (its `halt`: a pause, its deadline), the first
   * row not written: the lane's checkpoint, every earlier row written; rows read after it are read again. The writer's
   * counts then count only the rows before it. @default undefined - every row added was written
   */
  readonly heldFrom?: RowMark;
}
