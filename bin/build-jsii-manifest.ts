import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The package.json of the staged jsii project (bin/build-jsii-stage.ts): CommonJS (no `"type"`), the jsii entry's
 * compiled files as `main`/`types`, and the `jsii` block naming each language's package. Everything a user-facing
 * registry shows (version, description, licence, keywords) comes from the repository's own package.json.
 */

/** The npm name of the jsii assembly: the name each language's runtime loads the JavaScript under. */
export const JSII_PACKAGE_NAME = 's3-ddb-import-construct';

/**
 * Where a release would publish the source link; no public repository exists yet, and jsii requires the field.
 * A release sets the real one here (it shows on Construct Hub, PyPI and Maven Central).
 */
const REPOSITORY_URL = 'https://github.com/s3-ddb-import/s3-ddb-import.git';

/**
 * Each language's package. Python: `pip install s3-ddb-import`, `import s3_ddb_import`; Java: Maven
 * `io.github.s3-ddb-import:s3-ddb-import`, package `io.github.s3ddbimport`; .NET: `S3DdbImport`; Go: a module path
 * under the release's repository.
 */
export const JSII_TARGETS = {
  python: { distName: 's3-ddb-import', module: 's3_ddb_import' },
  java: {
    package: 'io.github.s3ddbimport',
    maven: { groupId: 'io.github.s3-ddb-import', artifactId: 's3-ddb-import' },
  },
  dotnet: { namespace: 'S3DdbImport', packageId: 'S3DdbImport' },
  go: { moduleName: 'github.com/s3-ddb-import/s3-ddb-import-go', packageName: 's3ddbimport' },
} as const;

/**
 * The lowest aws-cdk-lib the other languages' packages ask for, below the npm package's peer range: each language
 * installs aws-cdk-lib from its own registry, which lags npm's. Maven resolves a version range from the registry's
 * index, whose newest aws-cdk-lib was 2.263.0 when this was set (PyPI then held 2.275.0, npm 2.276.0); a Java app
 * could not resolve a higher floor. Raise it with the registries.
 */
const JSII_PEER_MINIMUMS: Record<string, string> = { 'aws-cdk-lib': '^2.263.0' };

/** Construct Hub lists jsii packages that carry these keywords (besides the repository's own). */
const CONSTRUCT_HUB_KEYWORDS = ['awscdk', 'cdk'];

interface RootManifest {
  version: string;
  description: string;
  license: string;
  keywords: string[];
  peerDependencies: Record<string, string>;
}

/**
 * The staged package.json. aws-cdk-lib and constructs are peers, as for the npm package; jsii also wants each peer
 * as a devDependency at the lowest version the peer range allows, so the assembly is built against what it promises.
 */
export async function jsiiManifest(root: string): Promise<Record<string, unknown>> {
  const rootManifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as RootManifest;
  const peers = { ...rootManifest.peerDependencies, ...JSII_PEER_MINIMUMS };
  const devDependencies: Record<string, string> = {};
  for (const [name, range] of Object.entries(peers)) devDependencies[name] = range.replace(/^[\^~]/, '');
  return {
    name: JSII_PACKAGE_NAME,
    version: rootManifest.version,
    description: rootManifest.description,
    license: rootManifest.license,
    author: { name: 's3-ddb-import contributors', organization: false },
    repository: { type: 'git', url: REPOSITORY_URL },
    keywords: [...new Set([...CONSTRUCT_HUB_KEYWORDS, ...rootManifest.keywords])],
    main: 'jsii/index.js',
    types: 'jsii/index.d.ts',
    files: ['jsii/', 'lib/', 'lambdas/', 'dist/lambdas/', 'statemachine/', '.jsii', '!**/*.ts', '**/*.d.ts'],
    peerDependencies: peers,
    devDependencies,
    stability: 'experimental',
    jsii: { outdir: 'dist', versionFormat: 'full', targets: JSII_TARGETS },
  };
}
