import type { WriteRequest } from '@aws-sdk/client-dynamodb';
import { BatchWriter } from '../batch-writer.js';
import { keepLater } from '../combine-rows.js';
import { keyOf } from '../item-requests.js';
import type { Item } from '../item-sink.js';
import { itemWriteUnits } from '../write-units.js';
import { NO_COUNTS, type WriteModeEntry } from '../write-mode.js';
import { WRITE_MODE_TRAITS } from '../../contract/write-mode-traits.js';

/**
 * `delete`: BatchWriteItem DeleteRequests of each row's key. Rows of one key combined before sending count as
 * deleted too (their item is gone all the same). It removes data, so it needs a backup (or allowWithoutBackup).
 */
export const del: WriteModeEntry = {
  ...WRITE_MODE_TRAITS.delete,
  open(options) {
    const { keys } = options;
    const batchWriteItem = options.calls.batchWriteItem.bind(options.calls);
    const toRequest = (item: Item): WriteRequest => ({ DeleteRequest: { Key: keyOf(item, keys) } });
    const writer = new BatchWriter({ ...options, send: batchWriteItem, toRequest, combine: keepLater });
    return {
      writer,
      counts: (absorbed) => ({ ...NO_COUNTS, deleted: writer.written + absorbed + writer.replaced }),
    };
  },
  combine: keepLater,
  writeUnits: itemWriteUnits,
};
