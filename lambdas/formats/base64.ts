/** Standard base64 with its padding, as DynamoDB JSON and the AWS CLI write binary values. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The bytes of strict base64 text, or null when the text is not base64 (Buffer.from would skip the bad
 * characters and decode the rest, silently changing the value).
 */
export function decodeBase64(text: string): Buffer | null {
  return BASE64.test(text) ? Buffer.from(text, 'base64') : null;
}
