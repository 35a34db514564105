import { withNamedServiceErrors } from './service-error-names.js';

/**
 * A deployed handler: built on its first invocation from `wire()` (SDK clients are created once per container and
 * kept warm, as Powertools advises), its throttles and transient AWS errors named for the workflow's Retry
 * (service-error-names.ts). Kept apart from wiring.ts so a function that needs none of the default wiring's clients
 * (FindFailedChunk) does not bundle them.
 * @example
 * export const handler = withWiring(createFailedChunkHandler, () => ({ sfn: new SFNClient({}) }));
 */
export function withWiring<W, A extends unknown[], R>(
  factory: (wiring: W) => (...args: A) => Promise<R>,
  wire: () => W,
): (...args: A) => Promise<R> {
  let built: ((...args: A) => Promise<R>) | undefined;
  return withNamedServiceErrors((...args: A): Promise<R> => {
    built ??= factory(wire());
    return built(...args);
  });
}
