import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * Creates a customer managed KMS key in the local engine (KMS CreateKey,
 * https://docs.aws.amazon.com/kms/latest/APIReference/API_CreateKey.html) and returns its ARN, so SSE-KMS tests name a
 * key that exists, as S3 requires on AWS. A signed JSON 1.1 request: the project has no KMS client of its own to use.
 */
export async function createKmsKey(description: string): Promise<string> {
  const endpoint = new URL(process.env.AWS_ENDPOINT_URL_S3 as string); // the engine serves KMS on the same port
  const body = JSON.stringify({ Description: description });
  const signer = new SignatureV4({
    service: 'kms',
    region: process.env.AWS_REGION as string,
    credentials: {
      accessKeyId: process.env.AWS_ACCESS_KEY_ID as string,
      secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY as string,
    },
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    port: Number(endpoint.port),
    path: '/',
    headers: {
      host: endpoint.host,
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'TrentService.CreateKey',
    },
    body,
  });
  const response = await fetch(endpoint, { method: 'POST', headers: signed.headers, body });
  const answer = (await response.json()) as { KeyMetadata?: { Arn?: string } };
  if (!response.ok || !answer.KeyMetadata?.Arn) throw new Error(`CreateKey failed: ${JSON.stringify(answer)}`);
  return answer.KeyMetadata.Arn;
}
