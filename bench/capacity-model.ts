import { createHash } from 'node:crypto';

/** The modelled table: P partitions of C write units a second each, a key's partition chosen by a hash of it. */
export interface CapacityModel {
  /** P: how many partitions the table's capacity is spread over. */
  readonly partitions: number;
  /** C: write units a second each partition takes (DynamoDB: at most 1,000). */
  readonly unitsPerSecond: number;
  /** Unused capacity a partition keeps, in seconds of C (DynamoDB keeps up to 300 s of it; the model one). */
  readonly burstSeconds: number;
  /** The table the model applies to; other tables' requests pass through untouched. */
  readonly table: string;
  /** The partition key attribute's name. */
  readonly hashKey: string;
}

/** A write request's item (a PutRequest's Item, a DeleteRequest's Key) in DynamoDB JSON. */
export type WireItem = Record<string, Record<string, unknown>>;

/** The partition a partition key value falls on: md5 of its DynamoDB JSON, mod P (any even hash models the table). */
export function partitionOf(value: unknown, partitions: number): number {
  return createHash('md5').update(JSON.stringify(value)).digest().readUInt32BE(0) % partitions;
}

/**
 * Write units of one item: 1 per KB or part of it (DynamoDB's rule for standard writes). The size is the item's
 * DynamoDB JSON text length, a little over DynamoDB's own count (names + values): close enough for a model.
 */
export function unitsOf(item: WireItem): number {
  return Math.max(1, Math.ceil(JSON.stringify(item).length / 1024));
}

/**
 * The partitions' token buckets. Each starts empty at the first request (so the write phase's rate is the table's,
 * not inflated by a second of burst banked while the contender started) and fills at C a second up to `burstSeconds` of C. An item is taken when its partition's
 * bucket holds its units; refused otherwise, as DynamoDB refuses it into UnprocessedItems.
 */
export class PartitionBuckets {
  private readonly tokens: number[];
  /** When the buckets were last filled: undefined until the first request, so a contender's start is not banked. */
  private last: number | undefined;

  constructor(
    readonly model: CapacityModel,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = new Array<number>(model.partitions).fill(0);
  }

  /** Takes the items that fit, in request order: whether each was taken. */
  admit(items: readonly WireItem[]): boolean[] {
    this.refill();
    return items.map((item) => {
      const p = partitionOf(item[this.model.hashKey], this.model.partitions);
      const units = unitsOf(item);
      if (this.tokens[p] < units) return false;
      this.tokens[p] -= units;
      return true;
    });
  }

  private refill(): void {
    const t = this.now();
    const { unitsPerSecond, burstSeconds } = this.model;
    const added = ((t - (this.last ?? t)) / 1000) * unitsPerSecond;
    const cap = Math.max(1, unitsPerSecond * burstSeconds);
    for (let p = 0; p < this.tokens.length; p++) this.tokens[p] = Math.min(cap, this.tokens[p] + added);
    this.last = t;
  }
}
