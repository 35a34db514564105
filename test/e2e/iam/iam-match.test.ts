import { describe, expect, it } from 'vitest';
import { actionMatches, resourceMatches } from './iam-match.js';

describe('actionMatches', () => {
  it.each([
    // What CDK's grantRead grants covers the calls: a trailing * takes any rest of the name.
    ['s3:GetObject*', 's3:GetObject', true],
    ['s3:GetObject*', 's3:GetObjectTagging', true],
    // Action names are case-insensitive.
    ['S3:getobject', 's3:GetObject', true],
    ['s3:Get?bject', 's3:GetObject', true],
    ['s3:GetObject', 's3:GetObjectVersion', false],
    // The service prefix is part of the name: s3:* does not reach DynamoDB.
    ['s3:*', 'dynamodb:BatchWriteItem', false],
    ['*', 'dynamodb:BatchWriteItem', true],
  ])('%s allows %s: %s', (pattern, action, expected) => {
    expect(actionMatches(pattern, action)).toBe(expected);
  });
});

describe('resourceMatches', () => {
  const bucket = 'arn:aws:s3:::data';
  it.each([
    // An object pattern covers keys at any depth under it, and nothing beside it.
    [`${bucket}/rejects/*`, `${bucket}/rejects/run-1/23.csv`, true],
    [`${bucket}/rejects/*`, `${bucket}/imports/a.tsv`, false],
    // Objects and the bucket are different resources.
    [`${bucket}/*`, bucket, false],
    [bucket, `${bucket}/a.tsv`, false],
    // Resource names are case-sensitive.
    ['arn:aws:dynamodb:eu-west-1:1:table/Ngrams', 'arn:aws:dynamodb:eu-west-1:1:table/ngrams', false],
    // Inside a segment * stops at a colon; ending a segment it may run past one.
    ['arn:aws:dynamodb:*:123456789012:table/ngrams', 'arn:aws:dynamodb:eu-west-1:123456789012:table/ngrams', true],
    ['arn:aws:dynamodb:eu-*-1:123456789012:table/n', 'arn:aws:dynamodb:eu-west:x-1:123456789012:table/n', false],
    [
      'arn:aws:lambda:eu-west-1:123456789012:function:f*',
      'arn:aws:lambda:eu-west-1:123456789012:function:f:alias',
      true,
    ],
    ['*', 'arn:aws:kms:eu-west-1:123456789012:key/1', true],
    // Regular-expression characters in ARNs are plain characters.
    ['arn:aws:s3:::a.b/*', 'arn:aws:s3:::axb/k', false],
  ])('%s covers %s: %s', (pattern, arn, expected) => {
    expect(resourceMatches(pattern, arn)).toBe(expected);
  });
});
