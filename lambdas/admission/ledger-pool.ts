import {
  DeleteItemCommand,
  GetItemCommand,
  TransactWriteItemsCommand,
  type AttributeValue,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import type { LaneCounts, LaneHolder } from './lane-admission.js';
import { countsOf, holderOf, importKey, LANES_ATTRIBUTES as A, LANES_KEY, admittedItem } from './ledger-items.js';

type Send = Pick<DynamoDBClient, 'send'>['send'];

/** How a transaction on the lanes item ended. */
export type TakeOutcome =
  /** The lanes are the import's now. */
  | 'taken'
  /** The import's item exists already: it was admitted (by an earlier ask, or one running at the same time). */
  | 'held'
  /** The counts it relied on changed: other imports took lanes in between. */
  | 'lanes-gone'
  /** Another transaction on the same items ran at the same time, or DynamoDB throttled: try again a little later. */
  | 'busy';

/** A holder taken off because its lease ran out: only while its lease is still run out when the write lands. */
export interface StaleSince {
  readonly now: number;
}

/**
 * The lanes item of the ledger and the imports' own items, changed together: each admission and each release is
 * one TransactWriteItems of two items (the counters and the import's item), so the counters always equal what the
 * imports' items hold, and a preflight or Summarize that stops between two calls leaves nothing half done
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html). Every item stays small:
 * the lanes item ~30 bytes per table, an import's ~100 bytes; a transactional write costs 2 write units per KB of
 * each item (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html), so 4 per
 * admission or release whatever the number of imports running, where the one pool item listing every holder cost
 * 35-60 units at 500 imports and reached DynamoDB's 400 KB item limit near 4,000.
 */
export class LedgerPool {
  constructor(
    private readonly send: Send,
    private readonly tableName: string,
  ) {}

  /** The counts as they are, strongly consistent (admissions decide on them). */
  async counts(table: string): Promise<LaneCounts> {
    const { Item } = await this.send(
      new GetItemCommand({ TableName: this.tableName, Key: LANES_KEY, ConsistentRead: true }),
    );
    return countsOf(Item, table);
  }

  /** Takes `holder.lanes` for `execution`, if they are still free, with its item and first lease. */
  take(execution: string, holder: LaneHolder, room: Room, item: { leaseUntil: number; maxWriteRate: number }) {
    const put: TransactWriteItem = {
      Put: {
        TableName: this.tableName,
        Item: admittedItem(execution, holder, item.leaseUntil, item.maxWriteRate),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    return this.transact([this.countIn(execution, holder, room), put]);
  }

  /**
   * Gives `execution`'s lanes back and deletes its item: 'taken' when done, 'held' when its item was gone (released
   * already) or, for a stale holder, its lease was renewed meanwhile.
   */
  give(execution: string, holder: LaneHolder, stale?: StaleSince): Promise<TakeOutcome> {
    return this.transact([this.countOut(holder), this.removal(execution, stale)]);
  }

  /** Deletes the import's item and, when the lanes item counts it, gives its lanes back in the same transaction. */
  giveBack(execution: string, item: Record<string, AttributeValue>, stale?: StaleSince): Promise<TakeOutcome> {
    const holder = holderOf(item);
    return holder ? this.give(execution, holder, stale) : this.forget(execution, stale);
  }

  /** Deletes the item of an import the lanes item does not count (holderOf: written before the counters). */
  async forget(execution: string, stale?: StaleSince): Promise<TakeOutcome> {
    try {
      await this.send(new DeleteItemCommand(this.removal(execution, stale).Delete!));
      return 'taken';
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return 'held';
      throw error;
    }
  }

  /** The import's item goes: on the condition that it exists and, for a stale holder, its lease still ran out. */
  private removal(execution: string, stale?: StaleSince): TransactWriteItem {
    return {
      Delete: {
        TableName: this.tableName,
        Key: importKey(execution),
        ConditionExpression: 'attribute_exists(pk)' + (stale ? ' AND leaseUntil < :now' : ''),
        ...(stale ? { ExpressionAttributeValues: { ':now': { N: String(stale.now) } } } : {}),
      },
    };
  }

  /** The counters grow by the holder's lanes, on the condition that these lanes are still free. */
  private countIn(execution: string, holder: LaneHolder, room: Room): TransactWriteItem {
    const names = this.names(holder.table);
    const tableFree = holder.capped
      ? '(attribute_not_exists(#imports) OR #imports = :zero)'
      : '(attribute_not_exists(#held) OR #held <= :tableRoom)';
    const poolFree = room.pool === null ? '' : ' AND (attribute_not_exists(poolHeld) OR poolHeld <= :poolRoom)';
    return {
      Update: {
        TableName: this.tableName,
        Key: LANES_KEY,
        UpdateExpression:
          (holder.capped ? 'SET #capped = :e ' : '') + 'ADD poolHeld :n, poolImports :one, #held :n, #imports :one',
        ConditionExpression: `${tableFree} AND attribute_not_exists(#capped)${poolFree}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':n': { N: String(holder.lanes) },
          ':one': { N: '1' },
          ...(holder.capped ? { ':e': { S: execution }, ':zero': { N: '0' } } : {}),
          ...(holder.capped ? {} : { ':tableRoom': { N: String(room.table - holder.lanes) } }),
          ...(room.pool === null ? {} : { ':poolRoom': { N: String(room.pool - holder.lanes) } }),
        },
      },
    };
  }

  private countOut(holder: LaneHolder): TransactWriteItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: LANES_KEY,
        UpdateExpression:
          'ADD poolHeld :minusN, poolImports :minusOne, #held :minusN, #imports :minusOne' +
          (holder.capped ? ' REMOVE #capped' : ''),
        ExpressionAttributeNames: this.names(holder.table, holder.capped),
        ExpressionAttributeValues: { ':minusN': { N: String(-holder.lanes) }, ':minusOne': { N: '-1' } },
      },
    };
  }

  private names(table: string, withCapped = true): Record<string, string> {
    return {
      '#held': A.tableHeld(table),
      '#imports': A.tableImports(table),
      ...(withCapped ? { '#capped': A.tableCapped(table) } : {}),
    };
  }

  /**
   * One transaction of [the lanes item, the import's item]. DynamoDB cancels it naming, per item, why
   * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
   */
  private async transact(items: [TransactWriteItem, TransactWriteItem]): Promise<TakeOutcome> {
    try {
      await this.send(new TransactWriteItemsCommand({ TransactItems: items }));
      return 'taken';
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      const [counts, own] = codes;
      if (own === 'ConditionalCheckFailed') return 'held';
      if (counts === 'ConditionalCheckFailed') return 'lanes-gone';
      if (codes.some((code) => RETRIED_CODES.has(code))) return 'busy';
      throw error;
    }
  }
}

/** Cancellation reasons worth another try a little later: another transaction on the item, or a throttle. */
const RETRIED_CODES = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * The reason codes of a cancelled transaction, in the order of its items, or null for any other error. The API
 * reference says only Java gets `CancellationReasons`; the JSON error carries them (the SDK reads them here), and
 * the message lists them too ("... [ConditionalCheckFailed, None]"), read when the property is missing.
 */
export function cancellationCodes(error: unknown): string[] | null {
  const { name, message, CancellationReasons } = error as Partial<Error> & {
    CancellationReasons?: { Code?: string }[];
  };
  if (name !== 'TransactionCanceledException') return null;
  if (CancellationReasons) return CancellationReasons.map((reason) => reason.Code ?? 'None');
  const listed = /\[([^\]]*)\]\s*$/.exec(message ?? '');
  return listed ? listed[1].split(',').map((code) => code.trim()) : null;
}

/** The room an admission may fill: lanes on the table and in the pool (null: no bound). */
export interface Room {
  readonly table: number;
  readonly pool: number | null;
}
