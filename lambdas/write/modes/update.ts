import { mergeLaterOver } from '../combine-rows.js';
import { updateRequests } from '../item-requests.js';
import { keyOnly, type StatementMode } from '../statement-mode.js';
import { StatementWriter } from '../statement-writer.js';
import { itemWriteUnits } from '../write-units.js';
import { NO_COUNTS, type WriteModeEntry } from '../write-mode.js';
import { WRITE_MODE_TRAITS } from '../../contract/write-mode-traits.js';

/**
 * `update` as statements: an UPDATE, which SETs the row's attributes on the item and leaves a missing item missing
 * (ConditionalCheckFailed: it goes again as its INSERT), or, while UPDATEs keep finding no item, an INSERT first (one
 * that finds the item goes again as its UPDATE). A row of key attributes only has nothing to SET: its INSERT alone,
 * and an item found is written. An item that cannot be a statement goes as UpdateItems, which create a missing item.
 */
export const UPDATE_STATEMENTS: StatementMode = {
  combine: mergeLaterOver,
  first: (item, keyCount, missingLately) => (missingLately || keyOnly(item, keyCount) ? 'insert' : 'update'),
  onDuplicate: (item, keyCount) => (keyOnly(item, keyCount) ? 'written' : 'update'),
  async alone(item, requests) {
    for (const request of updateRequests(requests.table, item, requests.keys)) await requests.update(request);
    return true;
  },
};

/**
 * `update`: merges each row into the item of its key (creating it when missing); rows of one key merge in file order,
 * and every row counts as written (rows merged before sending landed in the merge).
 */
export const update: WriteModeEntry = {
  ...WRITE_MODE_TRAITS.update,
  open(options) {
    const writer = new StatementWriter({ ...options, mode: UPDATE_STATEMENTS });
    return {
      writer,
      counts: (absorbed) => ({ ...NO_COUNTS, written: writer.written + absorbed + writer.replaced }),
    };
  },
  combine: mergeLaterOver,
  // The larger of the item before and after; the file tells only the row's size: a lower bound (write-units.ts).
  writeUnits: itemWriteUnits,
};
