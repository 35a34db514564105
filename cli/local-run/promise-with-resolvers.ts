/**
 * aws-local-stepfunctions 3.x calls Promise.withResolvers, which Node.js has from version 22. On Node 20
 * this stand-in (the same three fields, per the TC39 proposal) is installed before the interpreter loads.
 */
type WithResolvers = <T>() => {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
};

export function installPromiseWithResolvers(): void {
  const promise = Promise as unknown as { withResolvers?: WithResolvers };
  if (typeof promise.withResolvers === 'function') return;
  promise.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const created = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise: created, resolve, reject };
  };
}
