import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { RELAY_LEASE_SECONDS } from '../../lib/events/relay.ts';
import { resourcesOf, synthesize } from './stack-fixture.ts';

/** The service's events on EventBridge, as the stack deploys them. */
const { template } = synthesize();
const functions = resourcesOf(template, 'AWS::Lambda::Function');
const [relayId, relay] = Object.entries(functions).find(([, fn]) =>
  fn.Properties.Description?.startsWith('Publishes the event outbox'),
)!;
const roleOf = (fnId: string) =>
  (functions[fnId]!.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
const statementsOf = (t: typeof template, roleId: string) =>
  Object.values(resourcesOf(t, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
    );
const actionsOf = (statement: { Action: string | string[] }) => [statement.Action].flat();
const busId = Object.keys(resourcesOf(template, 'AWS::Events::EventBus'))[0]!;

const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:erp-webhook-AbCdEf';

describe('events on EventBridge', () => {
  it('creates the bus and tells the relay its name and metric namespace', () => {
    expect(busId).toBeDefined();
    expect(relay.Properties.Environment.Variables).toMatchObject({
      EVENT_BUS_NAME: { Ref: busId },
      POWERTOOLS_METRICS_NAMESPACE: 'CargoBoxingService',
    });
  });

  it('runs the relay every minute, with no reserved concurrency: its lease keeps one run publishing', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [relayId, 'Arn'] } })],
    });
    expect(relay.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('times the relay out before its lease expires, so an expired lease belongs to a run that is over', () => {
    expect(relay.Properties.Timeout).toBe(55);
    expect(relay.Properties.Timeout).toBeLessThan(RELAY_LEASE_SECONDS);
  });

  it('grants the relay events:PutEvents on its bus only and the Data API ExecuteStatement only', () => {
    const statements = statementsOf(template, roleOf(relayId));
    const put = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('events:')));
    expect(put).toEqual([
      expect.objectContaining({ Action: 'events:PutEvents', Resource: { 'Fn::GetAtt': [busId, 'Arn'] } }),
    ]);
    const dataApi = statements.flatMap(actionsOf).filter((a) => a.startsWith('rds-data:'));
    expect(dataApi).toEqual(['rds-data:ExecuteStatement']);
    expect(
      statements
        .flatMap(actionsOf)
        .every((a) =>
          /^(events:PutEvents|rds-data:ExecuteStatement|secretsmanager:GetSecretValue|logs:|xray:)/.test(a),
        ),
    ).toBe(true);
  });

  it('alarms when the oldest unpublished event is 5 minutes old or the relay stops reporting', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'OldestUnpublishedEventAge',
      Namespace: 'CargoBoxingService',
      Statistic: 'Maximum',
      Threshold: 300,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'breaching',
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^AlarmsTopic') }],
    });
  });

  it('has no archive and no API destination unless asked for', () => {
    template.resourceCountIs('AWS::Events::Archive', 0);
    template.resourceCountIs('AWS::Events::ApiDestination', 0);
    template.resourceCountIs('AWS::Events::Connection', 0);
  });

  it('publishes to an existing bus named in the settings, creating none', () => {
    const existing = synthesize({ eventBusName: 'erp-bus' }).template;
    existing.resourceCountIs('AWS::Events::EventBus', 0);
    const fns = resourcesOf(existing, 'AWS::Lambda::Function');
    const [id, fn] = Object.entries(fns).find(([, f]) =>
      f.Properties.Description?.startsWith('Publishes the event outbox'),
    )!;
    expect(fn.Properties.Environment.Variables.EVENT_BUS_NAME).toBe('erp-bus');
    const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const put = statementsOf(existing, role).find((s) => actionsOf(s).includes('events:PutEvents'))!;
    expect(JSON.stringify(put.Resource)).toContain(':event-bus/erp-bus');
  });

  it('archives the service events for replay when eventArchiveDays is set', () => {
    synthesize({ eventArchiveDays: 30 }).template.hasResourceProperties('AWS::Events::Archive', {
      SourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^EventsBus'), 'Arn'] },
      EventPattern: { source: ['cargo.service'] },
      RetentionDays: 30,
    });
  });

  it('delivers every event to the ERP webhook as an API destination with its auth header from Secrets Manager', () => {
    const withWebhook = synthesize({
      erpWebhookUrl: 'https://erp.example.com/hooks/cargo',
      erpWebhookSecretArn: SECRET,
      erpWebhookHeader: 'X-Api-Key',
    }).template;
    withWebhook.hasResourceProperties('AWS::Events::Connection', {
      AuthorizationType: 'API_KEY',
      AuthParameters: {
        ApiKeyAuthParameters: {
          ApiKeyName: 'X-Api-Key',
          ApiKeyValue: Match.stringLikeRegexp(`^\\{\\{resolve:secretsmanager:${SECRET}:SecretString:::\\}\\}$`),
        },
      },
    });
    withWebhook.hasResourceProperties('AWS::Events::ApiDestination', {
      InvocationEndpoint: 'https://erp.example.com/hooks/cargo',
      HttpMethod: 'POST',
    });
    withWebhook.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: Match.stringLikeRegexp('^EventsBus') },
      EventPattern: { source: ['cargo.service'] },
      Targets: [
        Match.objectLike({
          DeadLetterConfig: { Arn: Match.anyValue() },
          RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 },
        }),
      ],
    });
  });

  it('alarms on the first event the ERP webhook did not accept, to the alarm topic, and again when it is OK', () => {
    const withWebhook = synthesize({
      erpWebhookUrl: 'https://erp.example.com/hooks/cargo',
      erpWebhookSecretArn: SECRET,
    }).template;
    const alarm = Object.entries(withWebhook.findResources('AWS::CloudWatch::Alarm')).find(([id]) =>
      id.includes('ErpWebhookUndelivered'),
    )?.[1] as { Properties: { AlarmActions: unknown[]; OKActions?: unknown[] } } | undefined;
    expect(alarm?.Properties.AlarmActions).toHaveLength(1);
    expect(alarm?.Properties.OKActions).toEqual(alarm?.Properties.AlarmActions);
  });

  it('refuses an ERP webhook that is not https, or has no secret', () => {
    expect(() => synthesize({ erpWebhookUrl: 'http://erp.example.com/hooks', erpWebhookSecretArn: SECRET })).toThrow(
      /erpWebhookUrl \(CARGO_ERP_WEBHOOK_URL\): must be an https:\/\/ URL/,
    );
    expect(() => synthesize({ erpWebhookUrl: 'https://erp.example.com/hooks' })).toThrow(/erpWebhookSecretArn/);
  });
});
