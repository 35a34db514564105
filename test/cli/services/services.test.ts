import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// Clients are built from the environment alone, as the handlers build theirs: this proves the
// AWS_ENDPOINT_URL_* variables set in the global setup reach the workers and the SDK honours them.
const dynamodb = new DynamoDBClient({});
// The one setting the environment cannot carry: the engine is reached by IP address, so buckets go in the path.
const s3 = new S3Client({ forcePathStyle: true });
const suffix = randomUUID().slice(0, 8);

afterAll(() => {
  dynamodb.destroy();
  s3.destroy();
});

describe('local services', () => {
  it('exposes the same endpoints through env and inject', () => {
    const services = inject('localServices');
    expect(process.env.AWS_ENDPOINT_URL_DYNAMODB).toBe(services.dynamodbEndpoint);
    expect(process.env.AWS_ENDPOINT_URL_S3).toBe(services.s3Endpoint);
  });

  it('stores and reads back a DynamoDB item', async () => {
    const table = `services-test-${suffix}`;
    await dynamodb.send(
      new CreateTableCommand({
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await dynamodb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'a' }, count: { N: '42' } } }));
    const { Item } = await dynamodb.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'a' } } }));
    expect(Item).toEqual({ pk: { S: 'a' }, count: { N: '42' } });
  });

  describe('S3', () => {
    const bucket = `services-test-${suffix}`;
    const key = 'data/file.csv';

    beforeAll(async () => {
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: '0123456789' }));
    });

    it('serves a ranged GET with exactly the requested bytes', async () => {
      const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: 'bytes=2-5' }));
      // bytes=2-5 is inclusive at both ends: offsets 2, 3, 4, 5.
      expect(await response.Body?.transformToString()).toBe('2345');
      expect(response.ContentRange).toBe('bytes 2-5/10');
    });

    it('fails when IfMatch names another ETag', async () => {
      const error = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, IfMatch: '"wrong"' })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(S3ServiceException);
      expect((error as S3ServiceException).$metadata.httpStatusCode).toBe(412);
      expect((error as S3ServiceException).name).toBe('PreconditionFailed');
    });
  });
});
