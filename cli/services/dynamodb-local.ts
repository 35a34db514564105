import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from './free-port.js';
import { startProcess, type RunningService, type ServiceStartOptions } from './process.js';
import { runCommand } from './run-command.js';

/** Pinned so every machine tests against the same emulator. */
export const DYNAMODB_LOCAL_VERSION = '2.6.1';
/**
 * JVM start plus the first ListTables takes 2-4 s on an idle 2-core box; beside other work (a load average of 30 on
 * this machine, several suites at once) it took over 30 s. A slow start is not a failure: 120 s.
 */
const READY_TIMEOUT_MS = 120_000;
/** DynamoDB Local keeps every table in the heap and grows with each one; cap it so tests cannot eat the box. */
const JVM_HEAP = '-Xmx1g';

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.s3ddbimport</groupId>
  <artifactId>dynamodb-local-fetch</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>com.amazonaws</groupId>
      <artifactId>DynamoDBLocal</artifactId>
      <version>${DYNAMODB_LOCAL_VERSION}</version>
    </dependency>
  </dependencies>
</project>
`;

/**
 * Directory with DynamoDB Local's jars and native sqlite4java libraries, fetched from Maven Central
 * on first use. The download goes to a temp dir beside the target and is renamed into place, so an
 * interrupted fetch is never mistaken for a finished one.
 */
export async function ensureDynamoDbLocal(cache: string, log: (line: string) => void): Promise<string> {
  const home = join(cache, `dynamodb-local-${DYNAMODB_LOCAL_VERSION}`);
  const lib = join(home, 'lib');
  if (existsSync(join(lib, `DynamoDBLocal-${DYNAMODB_LOCAL_VERSION}.jar`))) return lib;

  log(`fetching DynamoDB Local ${DYNAMODB_LOCAL_VERSION} with Maven (one time, under a minute)…`);
  await mkdir(cache, { recursive: true });
  const work = await mkdtemp(join(cache, '.fetch-dynamodb-local-'));
  try {
    await writeFile(join(work, 'pom.xml'), POM);
    const args = ['-q', '-B', '-f', join(work, 'pom.xml'), 'dependency:copy-dependencies'];
    await runCommand('mvn', [...args, `-DoutputDirectory=${join(work, 'lib')}`], {
      log,
      label: 'DynamoDB Local fetch',
    });
    await mkdir(home, { recursive: true });
    // A concurrent fetch may have won the race; its copy is as good as ours.
    await rename(join(work, 'lib'), lib).catch((error: unknown) => {
      if (!existsSync(join(lib, `DynamoDBLocal-${DYNAMODB_LOCAL_VERSION}.jar`))) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return lib;
}

/**
 * Starts DynamoDB Local in memory on a free loopback port and waits until it answers ListTables.
 * In memory because on disk it manages under 1k items/s; `-sharedDb` so any credentials and region
 * see the same tables. It binds all interfaces (it has no bind option), hence the random port.
 */
export async function startDynamoDbLocal(options: ServiceStartOptions): Promise<RunningService> {
  const lib = await ensureDynamoDbLocal(options.cache, options.log);
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  // `java -jar` does not work on the Maven layout: the jar's manifest has no classpath, so name the main class.
  // -disableTelemetry: 2.x reports usage to AWS unless told not to; a test emulator has nothing to report.
  const args = [
    JVM_HEAP,
    `-Djava.library.path=${lib}`,
    ...['-cp', join(lib, '*'), 'com.amazonaws.services.dynamodbv2.local.main.ServerRunner'],
    ...['-inMemory', '-sharedDb', '-disableTelemetry', '-port', `${port}`],
  ];
  // Even in memory it writes dynamodb-local-metadata.json into its working directory: keep that out of the repo.
  const cwd = await mkdtemp(join(tmpdir(), 's3ddb-dynamodb-local-'));
  const cleanup = (): void => rmSync(cwd, { recursive: true, force: true });
  const server = startProcess('DynamoDB Local', 'java', args, { cwd, cleanup });
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: options.credentials,
    maxAttempts: 1,
  });
  try {
    await server.waitUntilReady(async () => {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return true;
    }, READY_TIMEOUT_MS);
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, process: server };
}
