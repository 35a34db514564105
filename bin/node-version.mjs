// Plain JavaScript: it runs before the CLI's bundle is built or loaded.
/**
 * The AWS SDK prints a 7-line NodeVersionSupportWarning before anything else on Node < 22, on every run and
 * above every error. The CLI says it in one line of its own instead, and turns the SDK's off (the variable it
 * reads: @aws-sdk/core, emitWarningIfUnsupportedVersion). Set the variable yourself to hush both.
 */
export function noteNodeVersion(
  version = process.version,
  env = process.env,
  write = (line) => process.stderr.write(line),
) {
  const major = Number(version.slice(1).split('.')[0]);
  if (major >= 22 || env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED !== undefined) return;
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  write(
    `note: Node ${version} runs s3-ddb-import, but AWS SDK releases after January 2027 need Node 22 ` +
      '(as Lambda runs it): upgrade when you can\n',
  );
}
