import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';
import { CHUNKS_MAP_LABEL } from '../../lib/workflow-tasks.js';
import { grantsOf as roleGrants, logicalId, parseJoinedJson } from './role-grants.js';

// Bundling is skipped here (it is what `cdk synth` in cdk-synth.test.ts covers): the template is the same.
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new S3DdbImportStack(app, 'Test', {
  tableNames: ['ngrams', 'words'],
  watches: [
    { prefix: 'imports/ngrams/', table: 'ngrams', format: { delimiter: '\t' }, types: { year: 'N' } },
    { prefix: 'imports/words/', table: 'words', chunkMiB: 16 },
  ],
  maxConcurrency: 8,
});
const template = Template.fromStack(stack);
const { pipeline } = stack;
const bucket = stack.node.findChild('Bucket');
const bucketArn = { 'Fn::GetAtt': [logicalId(bucket), 'Arn'] };
const tableArn = (name: string) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':dynamodb:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      `:table/${name}`,
    ],
  ],
});
const tableArns = [tableArn('ngrams'), tableArn('words')];
// FindFailedChunk's function (names a failed import after its first failed chunk) is not a public prop.
const failedChunkFunction = pipeline.node.findChild('FailedChunkFunction') as NodejsFunction;
// A mirror's two functions (lib/private/mirror-grants.ts) are not public props either.
const mirrorScanFunction = pipeline.node.findChild('MirrorScanFunction') as NodejsFunction;
const mirrorPartsFunction = pipeline.node.findChild('MirrorPartsFunction') as NodejsFunction;
const functions = [
  pipeline.preflightFunction,
  pipeline.importFunction,
  pipeline.summarizeFunction,
  failedChunkFunction,
  mirrorScanFunction,
  mirrorPartsFunction,
];
const stateMachineRef = { Ref: logicalId(pipeline.stateMachine) };
/** `arn:<partition>:states:<region>:<account>:execution:<state machine name><suffix>:*` as CloudFormation builds it. */
const executionsArn = (suffix: string) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':states:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      ':execution:',
      { 'Fn::Select': [6, { 'Fn::Split': [':', stateMachineRef] }] },
      `${suffix}:*`,
    ],
  ],
});

interface Statement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const grantsOf = (role: IConstruct | undefined) => roleGrants(template, role);

const grant = (actions: readonly string[], resources: unknown[]) =>
  Object.fromEntries(actions.map((action) => [action, resources]));
/** What a state machine needs to deliver logs to CloudWatch Logs. */
const LOG_DELIVERY_ACTIONS = [
  'logs:CreateLogDelivery',
  'logs:GetLogDelivery',
  'logs:UpdateLogDelivery',
  'logs:DeleteLogDelivery',
  'logs:ListLogDeliveries',
  'logs:PutResourcePolicy',
  'logs:DescribeResourcePolicies',
  'logs:DescribeLogGroups',
];
const XRAY_ACTIONS = [
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'xray:GetSamplingRules',
  'xray:GetSamplingTargets',
];
const objectsArn = { 'Fn::Join': ['', [bucketArn, '/*']] };
const rejectsArn = { 'Fn::Join': ['', [bucketArn, '/s3-ddb-import/rejects/*']] };
const ledgerArn = { 'Fn::GetAtt': [logicalId(pipeline.ledgerTable), 'Arn'] };
const stagingArn = { 'Fn::Join': ['', [bucketArn, '/s3-ddb-import/staging/*']] };
/** Readers get GetObject on any object and ListBucket on the bucket (a missing key answers 404, not 403). */
const sourceRead = (objects: unknown, bucket: unknown) => ({ 's3:GetObject': [objects], 's3:ListBucket': [bucket] });
/** A function writes its own log group and no other. */
const ownLogGroup = (fn: NodejsFunction) =>
  grant(['logs:CreateLogStream', 'logs:PutLogEvents'], [{ 'Fn::GetAtt': [logicalId(fn.logGroup), 'Arn'] }]);

/** A state machine's definition with each reference rendered `<Id>` / `<Id.Attr>`, parsed. */
function renderDefinition(machine: { Properties: { DefinitionString: unknown } }) {
  const join = machine.Properties.DefinitionString as { 'Fn::Join': [string, unknown[]] };
  return parseJoinedJson<{ States: Record<string, Record<string, unknown>> }>(join);
}

describe('ImportPipeline in S3DdbImportStack', () => {
  it('creates a standard, traced state machine that logs everything but execution data', () => {
    // The import's, and (with watches) the watch starter's: both standard, traced, logged without execution data.
    template.resourceCountIs('AWS::StepFunctions::StateMachine', 2);
    for (const machine of [pipeline.stateMachine, pipeline.watchStarter!.stateMachine]) {
      expect(template.toJSON().Resources[logicalId(machine)].Properties).toMatchObject({
        StateMachineType: 'STANDARD',
        LoggingConfiguration: { IncludeExecutionData: false, Level: 'ALL' },
        TracingConfiguration: { Enabled: true },
      });
    }
  });

  it('logs to a log group under /aws/vendedlogs/ (kept out of the account-wide CloudWatch Logs resource policy)', () => {
    // https://docs.aws.amazon.com/step-functions/latest/dg/bp-cwl.html: that policy is limited to 5,120 characters.
    const logGroup = pipeline.node.findChild('StateMachineLogs');
    const name = template.toJSON().Resources[logicalId(logGroup)].Properties.LogGroupName as string;
    expect(name).toMatch(/^\/aws\/vendedlogs\/states\/[A-Za-z0-9._\-/]+$/);
    expect(name).toContain('Test'); // the stack's name: two stacks in one account get two log groups
    expect(name.length).toBeLessThanOrEqual(512);
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: Match.objectLike({
        Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [logicalId(logGroup), 'Arn'] } } }],
      }),
    });
  });

  it('substitutes every placeholder of the definition file', () => {
    const machine = template.toJSON().Resources[logicalId(pipeline.stateMachine)];
    const substitutions = machine.Properties.DefinitionSubstitutions as Record<string, unknown>;
    const text = readFileSync(new URL('../../statemachine/import.asl.json', import.meta.url), 'utf8');
    const placeholders = new Set([...text.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]));
    expect(new Set(Object.keys(substitutions))).toEqual(placeholders);
    expect(substitutions).toEqual({
      PreflightFunctionArn: { 'Fn::GetAtt': [logicalId(pipeline.preflightFunction), 'Arn'] },
      ImportFunctionArn: { 'Fn::GetAtt': [logicalId(pipeline.importFunction), 'Arn'] },
      SummarizeFunctionArn: { 'Fn::GetAtt': [logicalId(pipeline.summarizeFunction), 'Arn'] },
      FailedChunkFunctionArn: { 'Fn::GetAtt': [logicalId(failedChunkFunction), 'Arn'] },
      MirrorScanFunctionArn: { 'Fn::GetAtt': [logicalId(mirrorScanFunction), 'Arn'] },
      MirrorPartsFunctionArn: { 'Fn::GetAtt': [logicalId(mirrorPartsFunction), 'Arn'] },
      MaxConcurrency: '8',
    });
  });

  it('runs every function on Node.js 22 and ARM64 with the pipeline environment', () => {
    template.resourceCountIs('AWS::Lambda::Function', 6 + 1); // + the bucket notifications handler
    for (const fn of functions) {
      expect(template.toJSON().Resources[logicalId(fn)].Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Environment: {
          Variables: {
            REJECTS_PREFIX: 's3-ddb-import/rejects',
            STAGING_PREFIX: 's3-ddb-import/staging',
            ALLOWED_TABLES: 'ngrams,words',
            // Preflight refuses a request for another bucket by name (lambdas/request/deployment-scope.ts).
            BUCKET_NAME: { Ref: logicalId(bucket) },
          },
        },
      });
    }
  });

  it("tells preflight the import function's memory, for the Parquet row group check", () => {
    const preflight = template.toJSON().Resources[logicalId(pipeline.preflightFunction)].Properties;
    const importer = template.toJSON().Resources[logicalId(pipeline.importFunction)].Properties;
    expect(preflight.Environment.Variables.IMPORT_MEMORY_MB).toBe(String(importer.MemorySize));
  });

  it('gives each function a role without managed policies that holds exactly the grants it uses', () => {
    for (const fn of functions) {
      expect(template.toJSON().Resources[logicalId(fn.role!)].Properties.ManagedPolicyArns).toBeUndefined();
    }
    // SSE-S3: no KMS grants. test/e2e/iam/grants-cover-calls.test.ts proves each of these is called.
    expect(grantsOf(pipeline.preflightFunction.role)).toEqual({
      ...ownLogGroup(pipeline.preflightFunction),
      ...sourceRead(objectsArn, bucketArn),
      // The S3 trampoline: big compressed objects staged as plain pieces, and nothing else written.
      's3:PutObject': [stagingArn],
      'dynamodb:DescribeTable': tableArns,
      // No dynamodb:UpdateTable: the pre-warm of a request's warmThroughput needs allowWarmThroughput (below).
      // The safety check before an import that can destroy data (lambdas/table-checks/table-safety-check.ts); the Scan only
      // with Select COUNT (below).
      'dynamodb:DescribeContinuousBackups': tableArns,
      // The ledger: read the lanes item, take lanes with its own item (a transaction: Put + Update), read the
      // holders when the lanes are full (Scan), give back the lanes of stale ones (Delete + Update).
      'dynamodb:Scan': [...tableArns, ledgerArn],
      'dynamodb:GetItem': [ledgerArn],
      'dynamodb:PutItem': [ledgerArn],
      'dynamodb:UpdateItem': [ledgerArn],
      'dynamodb:DeleteItem': [ledgerArn],
      // The lanes: the import function's reservation, else the account's unreserved concurrency. The one '*':
      // GetAccountSettings has no resource type to name.
      'lambda:GetFunctionConcurrency': [{ 'Fn::GetAtt': [logicalId(pipeline.importFunction), 'Arn'] }],
      'lambda:GetAccountSettings': ['*'],
    });
    expect(grantsOf(pipeline.importFunction.role)).toEqual({
      ...ownLogGroup(pipeline.importFunction),
      ...sourceRead(objectsArn, bucketArn),
      's3:PutObject': [rejectsArn],
      // A rejects file past one part is a multipart upload, aborted when its invocation fails.
      's3:AbortMultipartUpload': [rejectsArn],
      // Each chunk's import deletes its staged piece once imported.
      's3:DeleteObject': [stagingArn],
      // put and delete batch; insert and update go as PartiQL statements in batches, and as a conditional PutItem or
      // an UpdateItem when an item's names make a statement too long (issue 19's modes); sync reads each key's item
      // first (BatchGetItem) and puts the ones that differ.
      'dynamodb:BatchWriteItem': tableArns,
      'dynamodb:BatchGetItem': tableArns,
      'dynamodb:PartiQLInsert': tableArns,
      'dynamodb:PartiQLUpdate': tableArns,
      'dynamodb:PutItem': [...tableArns, ledgerArn],
      // Its lease and live settings in the ledger; update's merges in the tables.
      'dynamodb:UpdateItem': [...tableArns, ledgerArn],
      // A chunk whose import holds no lanes (a redrive after ReleaseLanes) admits as preflight does
      // (lambdas/import/chunk-admission.ts): the lanes item, the holders, a transaction taking lanes.
      'dynamodb:GetItem': [ledgerArn],
      'dynamodb:Scan': [ledgerArn],
      'dynamodb:DeleteItem': [ledgerArn],
    });
    // Summarize reads no source: the Map results it totals arrive in its input. It lists, reads and deletes the
    // lanes' relative rejects files under the rejects prefix, which it rewrites with absolute lines.
    expect(grantsOf(pipeline.summarizeFunction.role)).toEqual({
      ...ownLogGroup(pipeline.summarizeFunction),
      's3:PutObject': [rejectsArn],
      's3:AbortMultipartUpload': [rejectsArn],
      's3:GetObject': [rejectsArn],
      's3:DeleteObject': [rejectsArn],
      's3:ListBucket': [bucketArn],
      // It gives the lanes back (reads the import's item; one transaction: the lanes item and the import's item).
      'dynamodb:GetItem': [ledgerArn],
      'dynamodb:UpdateItem': [ledgerArn],
      'dynamodb:DeleteItem': [ledgerArn],
    });
  });

  it("gives a mirror's functions exactly their grants: MirrorScan scans, only MirrorParts deletes", () => {
    expect(grantsOf(mirrorScanFunction.role)).toEqual({
      ...ownLogGroup(mirrorScanFunction),
      // The table's key parts, under the rejects prefix; no source read.
      's3:PutObject': [rejectsArn],
      'dynamodb:Scan': tableArns,
      // MirrorPlan sizes the parts and segments from ItemCount and TableSizeBytes.
      'dynamodb:DescribeTable': tableArns,
      // A segment renews the import's lease and reads its live settings (rate, pause), as a chunk does.
      'dynamodb:UpdateItem': [ledgerArn],
    });
    expect(grantsOf(mirrorPartsFunction.role)).toEqual({
      ...ownLogGroup(mirrorPartsFunction),
      // Reads the key parts, streams the delete lists (multipart past one part), lists a part's objects.
      's3:PutObject': [rejectsArn],
      's3:AbortMultipartUpload': [rejectsArn],
      's3:GetObject': [rejectsArn],
      's3:ListBucket': [bucketArn],
      // MirrorDropKeyParts deletes the key parts only (<execution>/mirror/), never a delete list or a reject.
      's3:DeleteObject': [{ 'Fn::Join': ['', [bucketArn, '/s3-ddb-import/rejects/*/mirror/*']] }],
      'dynamodb:BatchWriteItem': tableArns,
      'dynamodb:UpdateItem': [ledgerArn],
    });
  });

  it('lets preflight Scan the tables only to count (dynamodb:Select = COUNT), never to read items', () => {
    // The ledger is the pipeline's own table: preflight reads its holders with a Scan (lambdas/control-plane).
    const onLedger = (s: Statement) => JSON.stringify(s.Resource).includes('PipelineLedger');
    // A mirror's Scan of the keys is its own function's (MirrorScan; below), never preflight's.
    const mirrorScanRole = logicalId(mirrorScanFunction.role!);
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter(
      (policy) => !JSON.stringify(policy.Properties.Roles).includes(mirrorScanRole),
    );
    const scans = policies.flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as (Statement & { Condition?: unknown })[]).filter(
        (s) => asList(s.Action).includes('dynamodb:Scan') && !onLedger(s),
      ),
    );
    expect(scans).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:Scan',
        Resource: expect.anything(),
        Condition: { StringEquals: { 'dynamodb:Select': 'COUNT' } },
      },
      expect.objectContaining({ Condition: { StringEquals: { 'dynamodb:Select': 'COUNT' } } }),
    ]);
    expect(scans.flatMap((s) => asList(s.Resource))).toEqual(tableArns);
  });

  it('grants dynamodb:UpdateTable and tells preflight so only with allowWarmThroughput', () => {
    const preflightEnv = (t: Template, p: typeof pipeline) =>
      t.toJSON().Resources[logicalId(p.preflightFunction)].Properties.Environment.Variables;
    expect(preflightEnv(template, pipeline).WARM_THROUGHPUT_ALLOWED).toBeUndefined();
    const warming = new S3DdbImportStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Warming', {
      tableNames: ['ngrams'],
      allowWarmThroughput: true,
    });
    const warmingTemplate = Template.fromStack(warming);
    expect(roleGrants(warmingTemplate, warming.pipeline.preflightFunction.role)['dynamodb:UpdateTable']).toEqual([
      tableArn('ngrams'),
    ]);
    expect(preflightEnv(warmingTemplate, warming.pipeline).WARM_THROUGHPUT_ALLOWED).toBe('true');
  });

  it('fails at synth when a watch asks for warmThroughput the stack does not allow', () => {
    const build = () =>
      new S3DdbImportStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'WarmWatch', {
        tableNames: ['ngrams'],
        watches: [{ prefix: 'in/', table: 'ngrams', warmThroughput: 12_000 }],
      });
    expect(build).toThrow("watch for prefix 'in/': warmThroughput 12000 needs allowWarmThroughput: true");
  });

  it('asks the Lambda API for nothing (and holds no grant for it) when the import function has reserved concurrency', () => {
    const reserving = new S3DdbImportStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Reserved', {
      tableNames: ['ngrams'],
      importReservedConcurrency: 20,
    });
    const reservingTemplate = Template.fromStack(reserving);
    reservingTemplate.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'Imports one chunk of an object into DynamoDB',
      ReservedConcurrentExecutions: 20,
    });
    const preflightGrants = roleGrants(reservingTemplate, reserving.pipeline.preflightFunction.role);
    // Preflight reads the reservation from IMPORT_RESERVED_CONCURRENCY (lambdas/environment/deploy-time-concurrency.ts).
    expect(preflightGrants['lambda:GetFunctionConcurrency']).toBeUndefined();
    expect(preflightGrants['lambda:GetAccountSettings']).toBeUndefined();
  });

  it('grants no S3, DynamoDB or KMS action on "*"', () => {
    const offending = Object.entries(template.findResources('AWS::IAM::Policy')).flatMap(([id, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Statement[])
        .filter((s) => asList(s.Action).some((a) => /^(s3|dynamodb|kms):/.test(a) || a === '*'))
        .filter((s) => asList(s.Resource).includes('*'))
        .map((s) => `${id}: ${JSON.stringify(s)}`),
    );
    expect(offending).toEqual([]);
  });

  it('lets the state machine invoke exactly the six functions, deliver its logs and send traces', () => {
    const invokable = functions.flatMap((fn) => {
      const arn = { 'Fn::GetAtt': [logicalId(fn), 'Arn'] };
      return [arn, { 'Fn::Join': ['', [arn, ':*']] }];
    });
    // Log delivery and X-Ray actions have no resource-level permissions: '*' is the only choice for them.
    // The Distributed Map starts, describes and stops its own child executions, and may redrive its Map Runs'.
    expect(grantsOf(pipeline.stateMachine.role)).toEqual({
      ...grant(LOG_DELIVERY_ACTIONS, ['*']),
      ...grant(XRAY_ACTIONS, ['*']),
      'lambda:InvokeFunction': invokable,
      'states:StartExecution': [stateMachineRef],
      'states:DescribeExecution': [executionsArn('')],
      'states:StopExecution': [executionsArn('')],
      'states:RedriveExecution': [executionsArn(`/${CHUNKS_MAP_LABEL}`)],
    });
  });

  it('adds one rule per watch that builds the request with an input transformer', () => {
    template.resourceCountIs('AWS::Events::Rule', 2);
    const inputPathsMap = {
      'detail-bucket-name': '$.detail.bucket.name',
      'detail-object-key': '$.detail.object.key',
      'detail-object-sequencer': '$.detail.object.sequencer',
    };
    const starter = pipeline.watchStarter!;
    for (const [prefix, table] of [
      ['imports/ngrams/', 'ngrams'],
      ['imports/words/', 'words'],
    ]) {
      template.hasResourceProperties('AWS::Events::Rule', {
        EventPattern: {
          source: ['aws.s3'],
          'detail-type': ['Object Created'],
          detail: Match.objectLike({
            bucket: { name: [{ Ref: logicalId(bucket) }] },
            object: Match.objectLike({ key: [{ prefix }] }),
          }),
        },
        // To the watch starter, which names the import after the event; undeliverable events go to the DLQ after
        // EventBridge's retries (24 hours, 185 attempts).
        Targets: [
          Match.objectLike({
            Arn: { Ref: logicalId(starter.stateMachine) },
            InputTransformer: {
              InputPathsMap: inputPathsMap,
              InputTemplate: Match.stringLikeRegexp(`"table":"${table}"`),
            },
            DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalId(starter.deadLetterQueue), 'Arn'] } },
            RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 },
          }),
        ],
      });
    }
  });

  it('starts each watched import under a name derived from the event, and ends a repeated event without a second', () => {
    const starter = pipeline.watchStarter!;
    const definition = renderDefinition(template.toJSON().Resources[logicalId(starter.stateMachine)]);
    expect(definition.States.StartImport).toMatchObject({
      Type: 'Task',
      Resource: 'arn:<AWS::Partition>:states:::states:startExecution',
      Parameters: {
        StateMachineArn: `<${logicalId(pipeline.stateMachine)}>`,
        'Name.$': "States.Format('watch{}-{}', $.watch, States.Hash(States.JsonToString($.event), 'SHA-256'))",
        'Input.$': '$.request',
      },
      Retry: [
        { ErrorEquals: ['StepFunctions.ExecutionAlreadyExistsException'], MaxAttempts: 0 },
        expect.objectContaining({ ErrorEquals: ['States.TaskFailed'], JitterStrategy: 'FULL' }),
      ],
      Catch: [{ ErrorEquals: ['StepFunctions.ExecutionAlreadyExistsException'], Next: 'AlreadyStarted' }],
    });
    expect(definition.States.AlreadyStarted).toEqual({ Type: 'Succeed' });
    // It may start the import and nothing else.
    expect(grantsOf(starter.stateMachine.role)['states:StartExecution']).toEqual([stateMachineRef]);
  });

  it('keeps undeliverable watch events in an encrypted, TLS-only queue only the watch rules may send to', () => {
    const queue = pipeline.watchStarter!.deadLetterQueue;
    template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 1_209_600,
    });
    const rules = ['Watch0', 'Watch1'].map((id) => ({ 'Fn::GetAtt': [logicalId(pipeline.node.findChild(id)), 'Arn'] }));
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: logicalId(queue) }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ...rules.map((rule) =>
            Match.objectLike({
              Effect: 'Allow',
              Principal: { Service: 'events.amazonaws.com' },
              Action: 'sqs:SendMessage',
              Condition: { ArnEquals: { 'aws:SourceArn': rule } },
            }),
          ),
        ]),
      },
    });
  });

  it('alarms when an upload started no import: an event in the dead-letter queue or a failed starter', () => {
    const { deadLetterQueue, stateMachine, alarm } = pipeline.watchStarter!;
    expect(template.toJSON().Resources[logicalId(alarm)].Properties).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      Metrics: [
        { Expression: 'dead + failed', ReturnData: true },
        {
          Id: 'dead',
          MetricStat: {
            Metric: {
              Namespace: 'AWS/SQS',
              MetricName: 'ApproximateNumberOfMessagesVisible',
              Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(deadLetterQueue), 'QueueName'] } }],
            },
            Stat: 'Maximum',
          },
        },
        {
          Id: 'failed',
          MetricStat: {
            Metric: {
              Namespace: 'AWS/States',
              MetricName: 'ExecutionsFailed',
              Dimensions: [{ Name: 'StateMachineArn', Value: { Ref: logicalId(stateMachine) } }],
            },
            Stat: 'Sum',
          },
        },
      ],
    });
  });

  it('creates a private, encrypted, TLS-only bucket that sends events to EventBridge and access logs', () => {
    const accessLogs = stack.node.findChild('AccessLogsBucket');
    const resources = template.toJSON().Resources;
    for (const b of [bucket, accessLogs]) {
      expect(resources[logicalId(b)]).toMatchObject({
        DeletionPolicy: 'Retain',
        Properties: {
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            BlockPublicPolicy: true,
            IgnorePublicAcls: true,
            RestrictPublicBuckets: true,
          },
          BucketEncryption: {
            ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
          },
          // ACLs off: access is decided by policies alone.
          OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        },
      });
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: logicalId(b) },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
    expect(resources[logicalId(bucket)].Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logicalId(accessLogs) },
    });
    // S3 log delivery may write the log bucket only for this bucket in this account.
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(accessLogs) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Allow',
            Principal: { Service: 'logging.s3.amazonaws.com' },
            Action: 's3:PutObject',
            Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalId(accessLogs), 'Arn'] }, '/*']] },
            Condition: {
              ArnLike: { 'aws:SourceArn': bucketArn },
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
            },
          },
        ]),
      },
    });
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      NotificationConfiguration: { EventBridgeConfiguration: {} },
    });
  });

  it('expires staged pieces after 21 days (the longest import + the 14-day redrive window), noncurrent ones a day later', () => {
    // The import bucket's only rules (the access logs bucket has its own 365-day rule).
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: [
          {
            Id: 'ExpireStagedPieces',
            Prefix: 's3-ddb-import/staging/',
            ExpirationInDays: 21,
            NoncurrentVersionExpiration: { NoncurrentDays: 1 },
            Status: 'Enabled',
          },
          {
            Id: 'AbortUnfinishedRejectsUploads',
            Prefix: 's3-ddb-import/rejects/',
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
            Status: 'Enabled',
          },
        ],
      },
    });
  });

  it('outputs the state machine ARN and the bucket name', () => {
    template.hasOutput('StateMachineArn', { Value: { Ref: logicalId(pipeline.stateMachine) } });
    template.hasOutput('BucketName', { Value: { Ref: logicalId(bucket) } });
  });
});

describe('S3DdbImportStack with an existing bucket', () => {
  const existing = new S3DdbImportStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Existing', {
    bucketName: 'data-bucket',
    tableNames: ['ngrams'],
    watches: [{ prefix: 'in/', table: 'ngrams' }],
  });
  const t = Template.fromStack(existing);

  it('adds no lifecycle rule to a bucket it does not own, and still scopes staging to its prefix', () => {
    t.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 's3:DeleteObject',
            Resource: {
              'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::data-bucket/s3-ddb-import/staging/*']],
            },
          }),
        ]),
      },
    });
  });

  it("warns at synth that the watches need the bucket's EventBridge delivery, which it cannot see", () => {
    Annotations.fromStack(existing).hasWarning(
      '/Existing/Pipeline',
      Match.stringLikeRegexp('watches need bucket data-bucket to send its events to EventBridge'),
    );
  });

  it('creates no bucket and no notification custom resource', () => {
    t.resourceCountIs('AWS::S3::Bucket', 0);
    t.resourceCountIs('Custom::S3BucketNotifications', 0);
    t.resourceCountIs('AWS::Lambda::Function', 6);
  });

  it('scopes the grants to the named bucket', () => {
    t.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['s3:PutObject', 's3:AbortMultipartUpload'],
            Resource: {
              'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::data-bucket/s3-ddb-import/rejects/*']],
            },
          }),
        ]),
      },
    });
    t.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: Match.objectLike({ detail: Match.objectLike({ bucket: { name: ['data-bucket'] } }) }),
    });
  });
});
