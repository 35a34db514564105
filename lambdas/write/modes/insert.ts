import { keepEarlier } from '../combine-rows.js';
import { insertRequest } from '../item-requests.js';
import type { StatementMode } from '../statement-mode.js';
import { StatementWriter } from '../statement-writer.js';
import { itemWriteUnits } from '../write-units.js';
import { NO_COUNTS, type WriteModeEntry } from '../write-mode.js';
import { WRITE_MODE_TRAITS } from '../../contract/write-mode-traits.js';

/**
 * `insert` as statements: an INSERT, which writes only where no item has the key; one that finds an item
 * (DuplicateItem) is skipped, never retried. An item that cannot be a statement goes as a PutItem conditioned on no
 * item with the key.
 */
export const INSERT_STATEMENTS: StatementMode = {
  combine: keepEarlier,
  first: () => 'insert',
  onDuplicate: () => 'skipped',
  alone: (item, requests) => requests.put(insertRequest(requests.table, item, requests.keys)),
};

/**
 * `insert`: writes only keys that have no item; the first row of a key wins, and every other row of it (combined
 * before sending, or finding the item) counts as skipped. It never replaces data: no backup check.
 */
export const insert: WriteModeEntry = {
  ...WRITE_MODE_TRAITS.insert,
  open(options) {
    const writer = new StatementWriter({ ...options, mode: INSERT_STATEMENTS });
    return {
      writer,
      counts: (absorbed) => ({
        ...NO_COUNTS,
        written: writer.written,
        skipped: absorbed + writer.replaced + writer.skipped,
      }),
    };
  },
  combine: keepEarlier,
  // A failed condition consumes write units as a write does (write-units.ts), so a skipped row costs like a written one.
  writeUnits: itemWriteUnits,
};
