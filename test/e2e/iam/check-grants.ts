import { BUCKET_KEY } from './call-permissions.js';
import { actionMatches, resourceMatches } from './iam-match.js';
import type { RecordedCall } from './record-calls.js';
import type { Grant } from './template-grants.js';

/** One permission a function needed, and the recorded calls that needed it. */
export interface Needed {
  readonly task: string;
  readonly action: string;
  readonly resource: string;
  /** e.g. `S3Client.GetObjectCommand (HTTP 206) x12`. */
  readonly because: string;
  /** The condition keys the request carried (Permission.context). */
  readonly context?: Readonly<Record<string, string>>;
}

/** A grant no recorded call uses, kept on purpose: which action, for which functions, and why. */
export interface GrantNotCalled {
  readonly action: string;
  readonly reason: string;
}

/**
 * What the recorded calls needed, per function. The bucket-key permissions (BUCKET_KEY) become permissions on
 * `bucketKeyArn` for an SSE-KMS bucket and disappear for an SSE-S3 one (S3 then calls no KMS key for the caller).
 */
export function neededPermissions(calls: readonly RecordedCall[], bucketKeyArn: string | undefined): Needed[] {
  return calls.flatMap((call) =>
    (call.permissions ?? [])
      .filter((p) => p.resource !== BUCKET_KEY || bucketKeyArn !== undefined)
      .map((p) => ({
        task: call.task,
        action: p.action,
        resource: p.resource === BUCKET_KEY ? bucketKeyArn! : p.resource,
        because: `${call.command} (HTTP ${call.status ?? 'none'}) x${call.count}`,
        ...(p.context ? { context: p.context } : {}),
      })),
  );
}

const allows = (grant: Grant, needed: Needed) =>
  grant.task === needed.task &&
  actionMatches(grant.action, needed.action) &&
  resourceMatches(grant.resource, needed.resource) &&
  Object.entries(grant.conditions ?? {}).every(([key, value]) => needed.context?.[key] === value);

/** Each needed permission that no grant of its function allows, as a readable line. */
export function callsNotAllowed(needed: readonly Needed[], grants: readonly Grant[]): string[] {
  return needed
    .filter((n) => !grants.some((g) => allows(g, n)))
    .map((n) => `${n.task} calls ${n.action} on ${n.resource} (${n.because}) but its policy does not allow it`);
}

/**
 * Each grant that no needed permission of its function uses and that `notCalled` does not explain, and each
 * explanation that explains no grant (a stale entry), as readable lines.
 */
export function grantsNotUsed(
  needed: readonly Needed[],
  grants: readonly Grant[],
  notCalled: readonly GrantNotCalled[],
): string[] {
  const explained = (g: Grant) => notCalled.some((e) => e.action === g.action);
  const unused = grants
    .filter((g) => !needed.some((n) => allows(g, n)) && !explained(g))
    .map((g) => `${g.task} is granted ${g.action} on ${g.resource} (${g.where}) but no recorded call used it`);
  const stale = notCalled
    .filter((e) => !grants.some((g) => g.action === e.action))
    .map((e) => `${e.action} is listed as granted but not called, yet no function is granted it`);
  return [...unused, ...stale];
}
