/**
 * IAM's wildcard matching, enough to evaluate Allow statements without conditions.
 *
 * Actions: case-insensitive, `*` any run of characters, `?` one character
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html).
 * Resources: case-sensitive; `*` and `?` match within one colon-separated ARN segment, except that a `*` ending a
 * segment "can expand to match beyond the colon boundaries"; `*` alone matches every resource
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_resource.html).
 */

const escape = (c: string) => c.replace(/[.+^${}()|[\]\\/]/g, '\\$&');

function actionRegExp(pattern: string): RegExp {
  const body = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : escape(c))).join('');
  return new RegExp(`^${body}$`, 'i');
}

function resourceRegExp(pattern: string): RegExp {
  const chars = [...pattern];
  const body = chars
    .map((c, i) => {
      if (c === '?') return '[^:]';
      if (c !== '*') return escape(c);
      const endsSegment = i === chars.length - 1 || chars[i + 1] === ':';
      return endsSegment ? '.*' : '[^:]*';
    })
    .join('');
  return new RegExp(`^${body}$`);
}

/** Whether the policy's Action `pattern` (e.g. `s3:GetObject*`) allows `action` (e.g. `s3:GetObject`). */
export function actionMatches(pattern: string, action: string): boolean {
  return actionRegExp(pattern).test(action);
}

/** Whether the policy's Resource `pattern` (e.g. `arn:aws:s3:::b/rejects/*`) covers the ARN `arn`. */
export function resourceMatches(pattern: string, arn: string): boolean {
  return resourceRegExp(pattern).test(arn);
}
