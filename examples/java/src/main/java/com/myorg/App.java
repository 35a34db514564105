package com.myorg;

import io.github.s3ddbimport.ImportPipeline;
import io.github.s3ddbimport.ImportPipelineProps;
import io.github.s3ddbimport.PipelineWatch;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.s3.Bucket;

/** A Java CDK app with the pipeline: `cdk synth` runs it (cdk.json: "app": "mvn -e -q compile exec:java"). */
public final class App {
  public static void main(final String[] args) {
    software.amazon.awscdk.App app = new software.amazon.awscdk.App();
    Stack stack = new Stack(app, "Imports");
    // Your bucket and table; for existing ones, Bucket.fromBucketName and Table.fromTableName.
    Bucket bucket = Bucket.Builder.create(stack, "Uploads").eventBridgeEnabled(true).build();
    Table orders = Table.Builder.create(stack, "Orders")
        .partitionKey(Attribute.builder().name("orderId").type(AttributeType.STRING).build())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build();

    ImportPipeline pipeline = new ImportPipeline(stack, "Import", ImportPipelineProps.builder()
        .bucket(bucket)
        .tables(List.of(orders)) // the functions may write these tables and no others
        .watches(List.of(PipelineWatch.builder()
            .prefix("imports/orders/").tableRef(orders).types(Map.of("total", "N")).build()))
        .build());
    // The stack outputs the CLI reads: `npx s3-ddb-import start ./orders.csv --stack Imports --table <name> --follow`
    pipeline.addOutputs();

    app.synth();
  }
}
