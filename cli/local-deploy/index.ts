// The face of cli/local-deploy: deploying a CDK app into the local engine, as `local deploy` and the deployed
// test tier do.
export { cdk, cdkEntry, type CdkRun } from './cdk-cli.js';
export { deployAssembly, deployToEngine, type LocalDeployOptions, type LocalDeployment } from './deploy-stack.js';
export {
  ENGINE_ACTION_NAMES,
  ENGINE_EDITS,
  applyEngineEdits,
  statementsWith,
  type AppliedEdit,
  type EngineEdit,
} from './engine-edits.js';
export {
  ENGINE_REGION,
  ROOT_CREDENTIALS,
  applyEngineEnv,
  engineEnv,
  envForEngine,
  iamEngineTarget,
  startIamEngine,
  type EngineTarget,
} from './engine-env.js';
export { deployJson, deployLines } from './deploy-lines.js';
export { LocalDeployError } from './local-deploy-error.js';
export { engineCloudFormation, firstRefusal, stackOutputs } from './stack-state.js';
export {
  editTemplate,
  editedAssembly,
  readTemplate,
  writeTemplate,
  type Resource,
  type Statement,
  type Template,
} from './template.js';
