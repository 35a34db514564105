import { DryRunSink } from './dry-run-sink.js';
import type { Item, ItemSink } from './item-sink.js';
import { del } from './modes/delete.js';
import { insert } from './modes/insert.js';
import { put } from './modes/put.js';
import { sync } from './modes/sync.js';
import { update } from './modes/update.js';
import { SpreadingSink } from './spreading-sink.js';
import { indexesHolding } from './write-units.js';
import {
  NO_COUNTS,
  type ModeWriterOptions,
  type WriteCounts,
  type WriteModeEntry,
  type WriterStats,
} from './write-mode.js';
import type { WriteMode } from '../contract/import-request.js';

/** The write modes a request's `mode` names: a new mode is its own file under write/modes/ and one line here. */
export const WRITE_MODE_TABLE: Readonly<Record<WriteMode, WriteModeEntry>> = {
  put,
  insert,
  update,
  delete: del,
  sync,
};

/** A table of write modes by name: WRITE_MODE_TABLE, or one a caller extends (the wiring's `writeModes`). */
export type WriteModeTable = Readonly<Record<string, WriteModeEntry>>;

/** The mode a request names; throws for a name the table does not hold (the request validator names the modes). */
export function writeModeEntry(mode: string, modes: WriteModeTable = WRITE_MODE_TABLE): WriteModeEntry {
  const entry = Object.hasOwn(modes, mode) ? modes[mode] : undefined;
  if (!entry) throw new Error(`no write mode ${JSON.stringify(mode)} (known: ${Object.keys(modes).join(', ')})`);
  return entry;
}

/** The write units one record's write consumes in `mode` (its entry's `writeUnits`). */
export function writeUnitsOf(itemBytes: number, mode: WriteMode, indexesItLandsIn: number | readonly number[]): number {
  return WRITE_MODE_TABLE[mode].writeUnits(itemBytes, indexesItLandsIn);
}

/** How one chunk invocation writes, besides its mode. */
export interface WritePathOptions {
  /** Run everything but the writes: a DryRunSink adds up the write units instead. */
  readonly dryRun: boolean;
  /**
   * Reorder writes in a strided window (write/spreading-sink.ts), rows of one key combined by the mode's rule: for the
   * modes whose writer does not spread rows itself (`insert`, `update`, `sync`). `put` and `delete` always send through
   * the partition window (write/windowed-sender.ts), so for them it changes nothing.
   */
  readonly spread: boolean;
  /** Each secondary index's key attribute names (a dry run counts the indexes an item lands in). */
  readonly indexes: readonly (readonly string[])[];
  /** An item's size in bytes as DynamoDB counts it (formats/attribute-size.ts itemSize), for a dry run's units. */
  readonly itemBytes: (item: Item) => number;
}

/** A mode's write path for one chunk invocation: where items go, what the metrics read, and the mode's counts. */
export interface WritePath {
  readonly sink: ItemSink;
  readonly writer: WriterStats;
  /** This invocation's counts of the mode, once the sink is flushed. */
  counts(): WriteCounts;
}

/**
 * The write path of `entry`: its writer, behind a SpreadingSink when asked; for a dry run a DryRunSink that sends
 * nothing and adds up the mode's write units, or the mode's own dry run when it must read the table (`sync`).
 */
export function openWritePath(entry: WriteModeEntry, options: ModeWriterOptions, path: WritePathOptions): WritePath {
  const { indexes, itemBytes } = path;
  const unitsOf = (item: Item) => entry.writeUnits(itemBytes(item), indexesHolding(item, indexes));
  if (path.dryRun && !entry.dryRun) {
    const dry = new DryRunSink(unitsOf);
    return { sink: dry, writer: dry, counts: () => ({ ...NO_COUNTS, writeUnits: dry.writeUnits }) };
  }
  const { writer, counts } = path.dryRun && entry.dryRun ? entry.dryRun(options, unitsOf) : entry.open(options);
  const spread = path.spread ? new SpreadingSink(writer, undefined, entry.combine) : null;
  return { sink: spread ?? writer, writer, counts: () => counts(spread?.absorbed ?? 0) };
}
