import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { PartitionBuckets, unitsOf, type CapacityModel, type WireItem } from './capacity-model.js';

/** What the proxy saw of the modelled table's BatchWriteItem traffic. */
export interface CapacityStats {
  requests: number;
  /** Requests none of whose items fit: answered ProvisionedThroughputExceededException. */
  throttledRequests: number;
  itemsWritten: number;
  unitsWritten: number;
  /** Items refused (into UnprocessedItems, or with a throttled request). */
  itemsRefused: number;
  /** performance.now() of the first and the last reply that wrote an item. */
  firstWriteAt: number;
  lastWriteAt: number;
}

type WriteRequestJson = { PutRequest?: { Item: WireItem }; DeleteRequest?: { Key: WireItem } };
type BatchBody = { RequestItems: Record<string, WriteRequestJson[]> } & Record<string, unknown>;

const emptyStats = (): CapacityStats => ({
  requests: 0,
  throttledRequests: 0,
  itemsWritten: 0,
  unitsWritten: 0,
  itemsRefused: 0,
  firstWriteAt: NaN,
  lastWriteAt: NaN,
});

/**
 * DynamoDB's reply when no item of a BatchWriteItem could be written: "If none of the items can be processed due to
 * insufficient provisioned throughput on all of the tables in the request, then BatchWriteItem returns a
 * ProvisionedThroughputExceededException" (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html), HTTP 400.
 */
const THROTTLE_BODY = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded (capacity model)',
});

/**
 * A DynamoDB endpoint on 127.0.0.1 in front of the engine that gives one table the capacity `model` describes:
 * each BatchWriteItem to it is cut into the items its partitions take now (sent on to the engine) and the rest
 * (added to UnprocessedItems); everything else passes through. Modified replies carry a fresh X-Amz-Crc32, which the
 * Go SDK checks. `reset` starts a new run: fresh buckets and counts.
 */
export async function startCapacityProxy(engineUrl: string, initial: CapacityModel) {
  const engine = new URL(engineUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let buckets = new PartitionBuckets(initial);
  let stats = emptyStats();
  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      // No accept-encoding: Go's HTTP client asks for gzip, and the proxy must read and rewrite the engine's reply.
      const { 'accept-encoding': _, ...asked } = req.headers;
      const headers = { ...asked, 'content-length': String(body.length), host: engine.host };
      const out = httpRequest(
        { host: engine.hostname, port: engine.port, path: req.url, method: req.method, headers, agent },
        (res) => readAll(res).then((b) => resolve({ status: res.statusCode ?? 500, headers: res.headers, body: b })),
      );
      out.on('error', reject);
      out.end(body);
    });
  const reply = (res: ServerResponse, status: number, headers: IncomingMessage['headers'], body: Buffer | string) => {
    const bytes = Buffer.from(body);
    res.writeHead(status, {
      ...headers,
      'content-length': String(bytes.length),
      'x-amz-crc32': String(crc32(bytes)),
      'content-type': 'application/x-amz-json-1.0',
    });
    res.end(bytes);
  };
  const batchWrite = async (req: IncomingMessage, res: ServerResponse, parsed: BatchBody) => {
    const { table } = buckets.model;
    const requests = parsed.RequestItems[table];
    stats.requests++;
    const items = requests.map(itemOf);
    const taken = buckets.admit(items);
    const sent = requests.filter((_, i) => taken[i]);
    const refused = requests.filter((_, i) => !taken[i]);
    stats.itemsRefused += refused.length;
    if (sent.length === 0) {
      stats.throttledRequests++;
      return reply(res, 400, {}, THROTTLE_BODY);
    }
    const body = Buffer.from(JSON.stringify({ ...parsed, RequestItems: { [table]: sent } }));
    const out = await forward(req, body);
    const answer = JSON.parse(out.body.toString() || '{}');
    const left: WriteRequestJson[] = answer.UnprocessedItems?.[table] ?? [];
    if (out.status === 200) {
      const now = performance.now();
      const written = sent.length - left.length;
      stats.itemsWritten += written;
      stats.unitsWritten += sent.slice(0, written).reduce((n, r) => n + unitsOf(itemOf(r)), 0);
      if (Number.isNaN(stats.firstWriteAt)) stats.firstWriteAt = now;
      stats.lastWriteAt = now;
      // A table with nothing left is not named: DynamoDB's UnprocessedItems is empty then (ddbimport resends any entry).
      if (left.length + refused.length > 0)
        answer.UnprocessedItems = { ...answer.UnprocessedItems, [table]: [...left, ...refused] };
    }
    reply(res, out.status, out.headers, out.status === 200 ? JSON.stringify(answer) : out.body);
  };
  const server = createServer((req, res) => {
    void readAll(req)
      .then(async (body) => {
        const target = String(req.headers['x-amz-target'] ?? '');
        const parsed = target.endsWith('.BatchWriteItem') ? (JSON.parse(body.toString()) as BatchBody) : undefined;
        if (parsed?.RequestItems?.[buckets.model.table]) return batchWrite(req, res, parsed);
        const out = await forward(req, body);
        res.writeHead(out.status, out.headers);
        res.end(out.body);
      })
      .catch((error: Error) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`capacity proxy: ${error.message}`);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** A new run against `model`: empty buckets, counts from zero. */
    reset(model: CapacityModel) {
      buckets = new PartitionBuckets(model);
      stats = emptyStats();
    },
    stats: (): CapacityStats => ({ ...stats }),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const itemOf = (r: WriteRequestJson) => (r.PutRequest?.Item ?? r.DeleteRequest?.Key) as WireItem;

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    stream.on('data', (part: Buffer) => parts.push(part));
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
}
