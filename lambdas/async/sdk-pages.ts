import { createPaginator } from '@smithy/core';
import type { PaginationConfiguration, Paginator } from '@smithy/types';

/** Which fields carry a List operation's continuation token and page size, as its generated paginator names them. */
export interface PageTokens {
  readonly input: string;
  readonly output: string;
  readonly pageSize: string;
}

/**
 * The pages of one List call through the SDK's own paginator, made for `client`'s class. A generated `paginateX`
 * (client-s3's paginateListObjectsV2, client-sfn's paginateListExecutions, ...) is `createPaginator(XClient,
 * XCommand, tokens)` and checks `client instanceof XClient` against the copy of the SDK it was bundled with; the
 * local runner hands each handler bundle clients built outside it (another copy of the class), which it refuses
 * ("Invalid client"). `pageSize` is the operation's own page-size field. @default - the service's page size
 */
export function sdkPages<Input extends object, Output extends object>(
  client: PaginationConfiguration['client'],
  command: new (input: Input) => unknown,
  tokens: PageTokens,
  input: Input,
  pageSize?: number,
): Paginator<Output> {
  const paginate = createPaginator<PaginationConfiguration, Input, Output>(
    client.constructor,
    command,
    tokens.input,
    tokens.output,
    tokens.pageSize,
  );
  return paginate({ client, pageSize }, input);
}
