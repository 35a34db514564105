import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

/**
 * An alarm that goes off when `metric` reaches 1 in one of its periods and is OK again after a period without; missing
 * data (nothing happened at all) is not a failure. It notifies `topic` when one is given.
 */
export function alarmOnAny(
  scope: Construct,
  id: string,
  alarmDescription: string,
  metric: cloudwatch.IMetric,
  topic?: sns.ITopic,
): cloudwatch.Alarm {
  const alarm = new cloudwatch.Alarm(scope, id, {
    alarmDescription,
    metric,
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  if (topic) alarm.addAlarmAction(new actions.SnsAction(topic));
  return alarm;
}
