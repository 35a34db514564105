import type { PutItemCommandInput, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import type { CombineRows } from './combine-rows.js';
import type { Item } from './item-sink.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/** The PartiQL statement an item goes as: INSERT (only where no item has the key) or UPDATE (SET on the item). */
export type StatementKind = 'insert' | 'update';

/** What an INSERT that found an item with its key (`DuplicateItem`) leaves. */
export type DuplicateOutcome = 'skipped' | 'written' | 'update';

/** The single-item requests a mode's item that cannot be a statement goes as (write/item-writer.ts sends them). */
export interface SingleRequests {
  readonly table: string;
  readonly keys: readonly KeyAttribute[];
  /** One PutItem, retried; false when its condition failed (an item has the key). */
  put(input: PutItemCommandInput): Promise<boolean>;
  /** One UpdateItem, retried. */
  update(input: UpdateItemCommandInput): Promise<void>;
}

/**
 * What a write mode sent as PartiQL statements (write/statement-writer.ts) decides; each such mode is one object
 * (write/modes/insert.ts, update.ts), so the writer holds no check of a mode's name.
 */
export interface StatementMode {
  /** How a later row of a key already in the batch combines with the held one (a batch names a key once). */
  readonly combine: CombineRows;
  /** The statement an item goes as first; `missingLately`: UPDATEs have lately found no item. */
  first(item: Item, keyCount: number, missingLately: boolean): StatementKind;
  /** What it means that the item's INSERT found an item with its key. */
  onDuplicate(item: Item, keyCount: number): DuplicateOutcome;
  /** Writes an item that cannot be a statement as single-item requests: true when written, false when skipped. */
  alone(item: Item, requests: SingleRequests): Promise<boolean>;
}

/** An item of its key attributes only: nothing to SET. */
export const keyOnly = (item: Item, keyCount: number): boolean => Object.keys(item).length <= keyCount;
