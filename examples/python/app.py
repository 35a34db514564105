# A Python CDK app with the pipeline: `cdk synth` runs it (cdk.json: "app": "python app.py").
# pip install aws-cdk-lib constructs s3-ddb-import   (until a release: the wheel `npm run build:jsii` writes)
from aws_cdk import App, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_s3 as s3
from s3_ddb_import import ImportPipeline, PipelineWatch

app = App()
stack = Stack(app, "Imports")
# Your bucket and table; for existing ones, s3.Bucket.from_bucket_name and dynamodb.Table.from_table_name.
bucket = s3.Bucket(stack, "Uploads", event_bridge_enabled=True)
orders = dynamodb.Table(
    stack,
    "Orders",
    partition_key=dynamodb.Attribute(name="orderId", type=dynamodb.AttributeType.STRING),
    billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
)

pipeline = ImportPipeline(
    stack,
    "Import",
    bucket=bucket,
    tables=[orders],  # the functions may write these tables and no others
    watches=[PipelineWatch(prefix="imports/orders/", table_ref=orders, types={"total": "N"})],
)
# The stack outputs the CLI reads: `npx s3-ddb-import start ./orders.csv --stack Imports --table <name> --follow`
pipeline.add_outputs()

app.synth()
