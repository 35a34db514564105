import { BatchWriter } from '../batch-writer.js';
import { keepLater } from '../combine-rows.js';
import { DiffFile } from '../../sync-compare/diff-file.js';
import { SyncWriter, type SyncOutlet } from '../sync-writer.js';
import { itemWriteUnits } from '../write-units.js';
import { NO_COUNTS, type ModeWriter, type ModeWriterOptions, type WriteModeEntry } from '../write-mode.js';
import { WRITE_MODE_TRAITS } from '../../contract/write-mode-traits.js';

/**
 * `sync`: each row's item is compared with the item its key holds (a BatchGetItem of 100 keys) and put only when it is
 * missing (`added`) or different (`changed`, replaced whole); an equal item is left alone (`unchanged`). The last row
 * of a key wins, and the rows it replaced before its key was read count as skipped. Its dry run reads and compares
 * too, and writes a diff file instead of the puts.
 */
export const sync: WriteModeEntry = {
  ...WRITE_MODE_TRAITS.sync,
  open(options) {
    // The writes follow the reads, which the write-rate governor already paced: they do not wait on it again.
    const { beforeSend: _paced, ...unpaced } = options;
    const send = options.calls.batchWriteItem.bind(options.calls);
    const puts = new BatchWriter({ ...unpaced, send, combine: keepLater });
    return syncWriter(options, { kind: 'write', sink: puts });
  },
  dryRun(options, unitsOf) {
    const openDiff = options.openDiff;
    const diff = new DiffFile(() => {
      if (!openDiff) throw new Error('a sync dry run needs where to write its diff file (ModeWriterOptions.openDiff)');
      return openDiff();
    });
    return syncWriter(options, { kind: 'dry-run', diff, unitsOf });
  },
  combine: keepLater,
  writeUnits: itemWriteUnits,
};

/** The SyncWriter over `outlet`, and its counts. */
function syncWriter(options: ModeWriterOptions, outlet: SyncOutlet): ModeWriter {
  const read = options.calls.batchGetItem.bind(options.calls);
  const writer = new SyncWriter({ ...options, read, outlet });
  return {
    writer,
    // A row is added, changed or unchanged once; puts the BatchWriter combined were counted when compared.
    counts: (absorbed) => ({
      ...NO_COUNTS,
      written: writer.written,
      skipped: absorbed + writer.replaced,
      added: writer.added,
      changed: writer.changed,
      unchanged: writer.unchanged,
      writeUnits: writer.writeUnits,
    }),
  };
}
