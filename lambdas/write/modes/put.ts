import { BatchWriter } from '../batch-writer.js';
import { keepLater } from '../combine-rows.js';
import { itemWriteUnits } from '../write-units.js';
import { NO_COUNTS, type WriteModeEntry } from '../write-mode.js';
import { WRITE_MODE_TRAITS } from '../../contract/write-mode-traits.js';

/**
 * `put`: BatchWriteItem PutRequests, each replacing the item of its key; the last row of a key wins, and the rows it
 * replaced before sending count as skipped.
 */
export const put: WriteModeEntry = {
  ...WRITE_MODE_TRAITS.put,
  open(options) {
    const batchWriteItem = options.calls.batchWriteItem.bind(options.calls);
    const writer = new BatchWriter({ ...options, send: batchWriteItem, combine: keepLater });
    return {
      writer,
      counts: (absorbed) => ({ ...NO_COUNTS, written: writer.written, skipped: absorbed + writer.replaced }),
    };
  },
  combine: keepLater,
  writeUnits: itemWriteUnits,
};
