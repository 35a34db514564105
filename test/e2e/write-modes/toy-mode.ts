import type { WriteRequest } from '@aws-sdk/client-dynamodb';
import { BatchWriter } from '../../../lambdas/write/batch-writer.js';
import { keepLater } from '../../../lambdas/write/combine-rows.js';
import type { Item } from '../../../lambdas/write/item-sink.js';
import { itemWriteUnits } from '../../../lambdas/write/write-units.js';
import { NO_COUNTS, type WriteModeEntry } from '../../../lambdas/write/write-mode.js';

/** The attribute the toy mode adds to every item it writes. */
export const STAMP = { importedBy: { S: 'stamp' } };

/**
 * A toy write mode, `stamp`: a put whose items carry STAMP, built only from what a mode's file may use (a writer, a
 * rule for rows of one key, its counts). The last row of a key wins; the rows it replaced count as skipped.
 */
export const stamp: WriteModeEntry = {
  open(options) {
    const batchWriteItem = options.calls.batchWriteItem.bind(options.calls);
    const toRequest = (item: Item): WriteRequest => ({ PutRequest: { Item: { ...item, ...STAMP } } });
    const writer = new BatchWriter({ ...options, send: batchWriteItem, toRequest, combine: keepLater });
    return {
      writer,
      counts: (absorbed) => ({ ...NO_COUNTS, written: writer.written, skipped: absorbed + writer.replaced }),
    };
  },
  combine: keepLater,
  reports: ['written', 'skipped'],
  backup: { check: 'when-table-holds-items', atRisk: 'items with the keys this import writes are replaced' },
  laneShare: 1,
  pricedAs: 'as put',
  actions: ['dynamodb:BatchWriteItem'],
  writeUnits: itemWriteUnits,
};
