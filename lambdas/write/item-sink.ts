import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** A DynamoDB item as the writers send it. */
export type Item = Record<string, AttributeValue>;

/** Where items go: the BatchWriter, or anything with its shape (the SpreadingSink wraps one). */
export interface ItemSink {
  /**
   * Queues one item under its key (the key's canonical text: a repeated key keeps the last item). Returns
   * a promise when the caller must wait for it before adding more (a batch it completed waits to be sent).
   */
  add(item: Item, key: string): Promise<void> | undefined;
  /** Sends what is queued and waits until it is written. */
  flush(): Promise<void>;
  /** Items acknowledged by the table so far. */
  readonly written: number;
  /**
   * True when the sink already spreads a key-sorted file over the partitions itself (the BatchWriter given the
   * table's keys): a SpreadingSink in front then passes rows straight through. @default false
   */
  readonly spreadsItself?: boolean;
}
