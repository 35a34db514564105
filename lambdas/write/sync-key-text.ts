import { binaryText, numberValue } from '../attribute-values/attribute-equality.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { Item } from './item-sink.js';

/** The key's values as one text, numbers by value and binary as base64: a file's item and the table's agree on it. */
export function keyText(item: Item, keys: readonly KeyAttribute[]): string {
  return keys
    .map(({ name, type }) => {
      const value = item[name];
      if (type === 'N') return numberValue(value.N!);
      return type === 'B' ? binaryText(value.B as Uint8Array | string) : value.S!;
    })
    .join('\u0000');
}
