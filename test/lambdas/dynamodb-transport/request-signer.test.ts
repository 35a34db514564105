import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@smithy/core/checksum';
import { describe, expect, it } from 'vitest';
import { RequestSigner, type SignedRequest } from '../../../lambdas/dynamodb-transport/request-signer.js';

const request: SignedRequest = {
  host: 'dynamodb.eu-west-3.amazonaws.com',
  path: '/',
  target: 'DynamoDB_20120810.BatchWriteItem',
  contentType: 'application/x-amz-json-1.0',
  body: JSON.stringify({ RequestItems: { t: [{ PutRequest: { Item: { pk: { S: 'é 𝄞 "q"' }, n: { N: '1' } } } }] } }),
};
const now = new Date('2026-11-23T22:04:05.678Z');

/** The SDK's own signer on the same request: the reference, since the local engine does not check signatures. */
async function sdkAuthorization(
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  signingDate = now,
) {
  const signer = new SignatureV4({
    service: 'dynamodb',
    region: 'eu-west-3',
    credentials,
    sha256: Sha256,
    applyChecksum: false,
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'https:',
      hostname: request.host,
      path: request.path,
      query: {},
      headers: { host: request.host, 'content-type': request.contentType, 'x-amz-target': request.target },
      body: request.body,
    },
    { signingDate },
  );
  return signed.headers;
}

describe('RequestSigner', () => {
  it.each<[string, { accessKeyId: string; secretAccessKey: string; sessionToken?: string }]>([
    ['long-term keys', { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }],
    [
      'a session (Lambda role)',
      { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret/with+chars', sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE==' },
    ],
  ])('signs as the SDK SignatureV4 does, with %s', async (_, credentials) => {
    const ours = new RequestSigner('eu-west-3').sign(request, credentials, now);
    const sdk = await sdkAuthorization(credentials);
    expect(ours.authorization).toBe(sdk.authorization);
    expect(ours['x-amz-date']).toBe('20261123T220405Z');
    expect(ours['x-amz-security-token']).toBe(credentials.sessionToken);
    expect(ours.host).toBe(request.host);
  });

  it('makes a new key for a new day and for rotated credentials', async () => {
    const signer = new RequestSigner('eu-west-3');
    const first = { accessKeyId: 'AKID1', secretAccessKey: 'one' };
    const rotated = { accessKeyId: 'AKID2', secretAccessKey: 'two', sessionToken: 'token' };
    const nextDay = new Date('2026-11-24T00:00:01Z');
    signer.sign(request, first, now);
    expect(signer.sign(request, rotated, now).authorization).toBe((await sdkAuthorization(rotated)).authorization);
    const later = signer.sign(request, first, nextDay).authorization;
    expect(later).toBe((await sdkAuthorization(first, nextDay)).authorization);
  });

  it('dates each request by its own second, as the SDK does, in any order of calls', async () => {
    const signer = new RequestSigner('eu-west-3');
    const credentials = { accessKeyId: 'AKID1', secretAccessKey: 'one' };
    const at = (iso: string) => new Date(iso);
    for (const iso of [
      '2026-11-23T22:04:05.100Z',
      '2026-11-23T22:04:05.900Z', // same second: the date kept from the last request
      '2026-11-23T22:04:06.000Z',
      '2026-11-23T22:04:05.500Z', // an earlier second again
    ]) {
      const ours = signer.sign(request, credentials, at(iso));
      const sdk = await sdkAuthorization(credentials, at(iso));
      expect(ours['x-amz-date'], iso).toBe(sdk['x-amz-date']);
      expect(ours.authorization, iso).toBe(sdk.authorization);
    }
  });
});
