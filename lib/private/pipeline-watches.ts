import { Token } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { PipelineWatch, WatchedPrefix } from '../watched-prefix.js';

/**
 * Each watch with its table named by name: `table` as given, or `tableRef`'s name, which must be one of the
 * pipeline's `tables` (the grants are theirs). Exactly one of the two: a watch naming none or both fails early.
 */
export function resolveWatches(
  watches: readonly PipelineWatch[] | undefined,
  tables: readonly dynamodb.ITable[],
): WatchedPrefix[] {
  return (watches ?? []).map(({ tableRef, ...watch }) => {
    const what = `watch for prefix '${watch.prefix}'`;
    if ((watch.table === undefined) === (tableRef === undefined)) {
      throw new Error(`${what}: give its table as exactly one of table (a name) or tableRef (an ITable)`);
    }
    if (tableRef === undefined) return { ...watch, table: watch.table! };
    if (!tables.includes(tableRef) && !sameKnownName(tableRef, tables)) {
      throw new Error(`${what}: tableRef ${tableRef.node.path} is not among tables`);
    }
    return { ...watch, table: tableRef.tableName };
  });
}

/** A table given twice, as two objects with one literal name (e.g. two `Table.fromTableName` of one table). */
function sameKnownName(table: dynamodb.ITable, tables: readonly dynamodb.ITable[]): boolean {
  const name = table.tableName;
  return !Token.isUnresolved(name) && tables.some((t) => t.tableName === name);
}
