import { App, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { ImportPipeline } from '../../lib/index.js';

// examples/python/app.py and examples/java/.../App.java in TypeScript: the template both must match.
const app = new App();
const stack = new Stack(app, 'Imports');
const bucket = new s3.Bucket(stack, 'Uploads', { eventBridgeEnabled: true });
const orders = new dynamodb.Table(stack, 'Orders', {
  partitionKey: { name: 'orderId', type: dynamodb.AttributeType.STRING },
  billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
});
const pipeline = new ImportPipeline(stack, 'Import', {
  bucket,
  tables: [orders],
  watches: [{ prefix: 'imports/orders/', tableRef: orders, types: { total: 'N' } }],
});
pipeline.addOutputs();
app.synth();
