import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago.
 *
 * The kernel picks it (port 0); we close the listener before handing the port on, so another process
 * could in theory grab it first. A failed start then shows up as the service's own bind error.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error(`unexpected listen address: ${String(address)}`));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
