import { App } from 'aws-cdk-lib';
import { stackPropsFromContext } from '../lib/app-context.js';
import { S3DdbImportStack } from '../lib/s3-ddb-import-stack.js';

const app = new App();
new S3DdbImportStack(app, 'S3DdbImport', {
  ...stackPropsFromContext(app.node),
  description: 'Imports CSV/TSV objects from S3 into existing DynamoDB tables',
});
