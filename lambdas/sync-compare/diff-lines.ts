import type { AttributeMap } from '../attribute-values/attribute-equality.js';
import { binaryText } from '../attribute-values/attribute-equality.js';

/**
 * What a sync (or a mirror) would do to one key: `add` an item where the table has none, `change` the item the table
 * holds, `delete` an item the file no longer holds (the mirror's).
 */
export type DiffOp = 'add' | 'change' | 'delete';

/**
 * One line of a dry run's diff file (JSON Lines): `{"op":"change","key":{"id":{"S":"k1"}},"attributes":["price"]}`.
 * `key` holds the key attributes in DynamoDB JSON (binary as base64, as DynamoDB's JSON protocol writes it);
 * `attributes` the names whose values differ, sorted: every attribute of the file's item for `add`, the ones added,
 * changed or gone for `change`, none for `delete`.
 */
export interface DiffLine {
  readonly op: DiffOp;
  readonly key: AttributeMap;
  readonly attributes: readonly string[];
}

/** The folder of the diff files under an execution's output folder (`<rejectsPrefix>/<execution>/diff/`). */
export const DIFF_FOLDER = 'diff';

/**
 * The key of one invocation's diff file: `<execution folder>/diff/<chunk index>-<offset>.jsonl`, named by its chunk and
 * where the invocation started, so a resumed chunk writes a file of its own beside the first.
 *
 * @example
 * diffFileKey('rejects/exec-1', 3, 1048576); // 'rejects/exec-1/diff/3-1048576.jsonl'
 */
export function diffFileKey(executionFolder: string, chunkIndex: number, offset: number): string {
  return `${executionFolder}/${DIFF_FOLDER}/${chunkIndex}-${offset}.jsonl`;
}

/** A replacer writing binary values (B, BS members) as base64 text. */
function binaryAsText(this: Record<string, unknown>, name: string, value: unknown): unknown {
  const raw = this[name];
  return raw instanceof Uint8Array ? binaryText(raw) : value;
}

/**
 * One diff line as text, with its LF.
 *
 * @example
 * diffLineText({ op: 'add', key: { id: { S: 'k1' } }, attributes: ['id', 'name'] });
 * // '{"op":"add","key":{"id":{"S":"k1"}},"attributes":["id","name"]}\n'
 */
export function diffLineText(line: DiffLine): string {
  return `${JSON.stringify({ op: line.op, key: line.key, attributes: line.attributes }, binaryAsText)}\n`;
}

/** Parses a diff file's text back into its lines (tests, the CLI's count). */
export function parseDiffLines(text: string): DiffLine[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as DiffLine);
}
