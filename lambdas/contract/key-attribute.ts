/** A table key attribute as DescribeTable reports it. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N' | 'B';
  readonly role: 'HASH' | 'RANGE';
}
