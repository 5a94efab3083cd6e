import { Match } from 'aws-cdk-lib/assertions';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRoutes } from '../../infra/routes.ts';
import { resourcesOf, synthesize } from './stack-fixture.ts';

const { routeTable, tasks } = await loadRoutes();

/**
 * The actions of AWS's managed policy AmazonAPIGatewayPushToCloudWatchLogs, as AWS publishes it
 * (AWS Managed Policy Reference), written out here on purpose rather than read from
 * infra/constructs/api.ts: the test checks the construct against AWS's list, so a construct that
 * dropped or added an action fails it.
 */
const PUSH_TO_CLOUDWATCH_LOGS = [
  'logs:CreateLogGroup',
  'logs:CreateLogStream',
  'logs:DescribeLogGroups',
  'logs:DescribeLogStreams',
  'logs:FilterLogEvents',
  'logs:GetLogEvents',
  'logs:PutLogEvents',
];

const clusterArn = 'arn:aws:rds:eu-central-1:123456789012:cluster:erp-aurora';
const secretArn = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:erp-aurora-cargo-AbC123';
const userPoolId = 'eu-central-1_AbCdEf123';

/** The runtime configuration the stack writes beside the handheld app (`config.json`). */
const appConfigOf = (app: ReturnType<typeof synthesize>['app']) => {
  const { directory } = app.synth();
  return readdirSync(directory)
    .map((entry) => join(directory, entry, 'config.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
};

describe('with an existing cluster, secret and user pool', () => {
  const { app, template } = synthesize({
    clusterArn,
    secretArn,
    databaseName: 'erp',
    erpBoxView: 'erp.v_box_plan',
    userPoolId,
  });

  const secretIds = Object.keys(resourcesOf(template, 'AWS::SecretsManager::Secret'));
  const serviceSecret = { Ref: secretIds.find((id) => id.startsWith('DatabaseServiceUserSecret')) };
  const ownerSecret = { Ref: secretIds.find((id) => id.startsWith('DatabaseMigrationOwnerSecret')) };
  const readerSecret = { Ref: secretIds.find((id) => id.startsWith('DatabaseReaderUserSecret')) };
  const maintenanceSecret = { Ref: secretIds.find((id) => id.startsWith('DatabaseMaintenanceUserSecret')) };

  it('tells the handheld app that no zongpai is registered by SSCC without GS1_COMPANY_PREFIX', () => {
    expect(appConfigOf(app)).toEqual([expect.objectContaining({ sscc_enabled: false })]);
  });

  it('creates no cluster or VPC; only the secrets of the service user, the reader, the maintenance user and the migration owner', () => {
    for (const type of ['AWS::RDS::DBCluster', 'AWS::RDS::DBInstance', 'AWS::EC2::VPC'])
      template.resourceCountIs(type, 0);
    expect(secretIds).toHaveLength(4);
  });

  it('points every function at the given cluster, database and ERP view, signed in as the service user, the reader, the maintenance user or, migrating, as the owner', () => {
    const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).filter(
      (f) => f.Properties.Environment?.Variables?.DB_CLUSTER_ARN !== undefined,
    );
    const variables = functions.map((f) => f.Properties.Environment.Variables);
    expect(variables).toHaveLength(routeTable('cargo').length + tasks.length); // the routes and the functions that are not routes (migrations, maintenance, ...)
    for (const v of variables)
      expect(v).toMatchObject({ DB_CLUSTER_ARN: clusterArn, DB_NAME: 'erp', ERP_BOX_VIEW: 'erp.v_box_plan' });
    const migrators = variables.filter((v) => v.DB_MASTER_SECRET_ARN !== undefined);
    expect(migrators).toEqual([
      expect.objectContaining({
        DB_SECRET_ARN: ownerSecret,
        DB_MASTER_SECRET_ARN: secretArn,
        DB_SERVICE_SECRET_ARN: serviceSecret,
        DB_READER_SECRET_ARN: readerSecret,
        DB_MAINTENANCE_SECRET_ARN: maintenanceSecret,
      }),
    ]);
    const routes = new Set(routeTable('cargo').map((route) => `${route.method} ${route.path}`));
    for (const f of functions.filter((x) => x.Properties.Environment.Variables.DB_MASTER_SECRET_ARN === undefined)) {
      const secret = f.Properties.Environment.Variables.DB_SECRET_ARN;
      const description = String(f.Properties.Description);
      // The public OpenAPI function has no database user; a GET route reads as the reader; the
      // functions that are no route (the scheduled tasks) run as the maintenance user.
      if (description === 'GET /v1/openapi.json') expect(secret).toBeUndefined();
      else if (!routes.has(description)) expect(secret).toEqual(maintenanceSecret);
      else expect(secret).toEqual(description.startsWith('GET ') ? readerSecret : serviceSecret);
    }
  });

  it('scopes the Data API grants to the given cluster and lets only the migrator read the given (master) secret', () => {
    const readersOfGiven: unknown[] = [];
    for (const policy of Object.values(resourcesOf(template, 'AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement as {
        Action: string | string[];
        Resource: unknown;
      }[]) {
        const actions = [statement.Action].flat();
        if (actions.some((a) => a.startsWith('rds-data:'))) expect(statement.Resource).toBe(clusterArn);
        if (!actions.some((a) => a.startsWith('secretsmanager:'))) continue;
        for (const resource of [statement.Resource].flat())
          expect([secretArn, serviceSecret, readerSecret, maintenanceSecret, ownerSecret]).toContainEqual(resource);
        if ([statement.Resource].flat().includes(secretArn)) readersOfGiven.push(policy);
      }
    }
    expect(readersOfGiven).toHaveLength(1);
    expect(JSON.stringify(readersOfGiven[0])).toContain('rds-data:BeginTransaction');
  });

  it('still migrates the existing database on deploy', () => {
    template.resourceCountIs('Custom::Trigger', 1);
  });

  it('accepts only ID tokens of its own app client in the shared pool: creates the client there and gives its id to every route function', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const [clientId] = Object.keys(resourcesOf(template, 'AWS::Cognito::UserPoolClient'));
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', { UserPoolId: userPoolId });
    const routeFunctions = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).filter((f) =>
      routeTable('cargo').some((r) => f.Properties.Description === `${r.method} ${r.path}`),
    );
    expect(routeFunctions).toHaveLength(routeTable('cargo').length);
    for (const f of routeFunctions)
      expect(f.Properties.Environment.Variables.USER_POOL_CLIENT_ID).toEqual({ Ref: clientId });
  });

  it('creates no user pool or groups, and authorizes against the given pool', () => {
    for (const type of ['AWS::Cognito::UserPool', 'AWS::Cognito::UserPoolGroup']) template.resourceCountIs(type, 0);
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      ProviderARNs: [{ 'Fn::Join': ['', Match.arrayWith([`:userpool/${userPoolId}`])] }],
    });
  });
});

describe('with settings', () => {
  const { app, template } = synthesize({
    stage: 'live',
    servicePrefix: 'freight',
    throttlingRateLimit: '20',
    throttlingBurstLimit: '40',
    minCapacity: '0.5',
    maxCapacity: '8',
    deletionProtection: 'false',
    logRetentionDays: '30',
    functionEnvironment: '{"QUANTITY_MAX":"500","ENFORCE_ERP_PLAN":false,"GS1_COMPANY_PREFIX":"4012345"}',
    alarmEmail: 'ops@example.com',
    apiGatewayCloudWatchRole: 'true',
  });

  it('names the stage and throttles it as configured', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'live',
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 })],
    });
  });

  it('serves the location routes under the configured service prefix', () => {
    template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'freight' });
  });

  it('sizes the cluster as configured, without auto-pause above zero capacity, and without deletion protection', () => {
    template.hasResourceProperties('AWS::RDS::DBCluster', {
      ServerlessV2ScalingConfiguration: { MinCapacity: 0.5, MaxCapacity: 8 },
      DeletionProtection: false,
    });
    template.hasResourceProperties('AWS::Cognito::UserPool', { DeletionProtection: 'INACTIVE' });
  });

  it('keeps logs for the configured retention', () => {
    for (const group of Object.values(resourcesOf(template, 'AWS::Logs::LogGroup')))
      expect(group.Properties.RetentionInDays).toBe(30);
  });

  it('passes functionEnvironment to every function', () => {
    const variables = Object.values(resourcesOf(template, 'AWS::Lambda::Function'))
      .map((f) => f.Properties.Environment?.Variables)
      .filter((v) => v?.SERVICE_PREFIX !== undefined);
    expect(variables).toHaveLength(routeTable('freight').length + tasks.length);
    for (const v of variables)
      expect(v).toMatchObject({ SERVICE_PREFIX: 'freight', QUANTITY_MAX: '500', ENFORCE_ERP_PLAN: 'false' });
  });

  it('tells the handheld app that zongpais can be registered by SSCC when the functions have GS1_COMPANY_PREFIX', () => {
    expect(appConfigOf(app)).toEqual([expect.objectContaining({ service_prefix: 'freight', sscc_enabled: true })]);
  });

  it("tells the handheld app the functions' ENFORCE_ERP_PLAN and code patterns, so that it checks scans as they do", () => {
    expect(appConfigOf(app)).toEqual([
      expect.objectContaining({
        enforce_erp_plan: false,
        box_no_pattern: '^[A-Z0-9-]{4,32}$',
        zongpai_no_pattern: '^[A-Z0-9-]{4,32}$',
        location_code_pattern: '^[A-Z0-9-]{2,32}$',
      }),
    ]);
  });

  it("sets the region's API Gateway CloudWatch role, which the stage's access log needs, when asked to", () => {
    const [account] = Object.values(resourcesOf(template, 'AWS::ApiGateway::Account'));
    expect(account?.Properties.CloudWatchRoleArn).toBeDefined();
  });

  it("gives that role exactly the actions of AmazonAPIGatewayPushToCloudWatchLogs, on this account's log groups in the region, set before the stage", () => {
    const [accountId, account] = Object.entries(resourcesOf(template, 'AWS::ApiGateway::Account'))[0]!;
    const roleId = (account.Properties.CloudWatchRoleArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]!;
    const role = resourcesOf(template, 'AWS::IAM::Role')[roleId]!;
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies).toEqual([
      {
        PolicyName: 'PushToCloudWatchLogs',
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Action: PUSH_TO_CLOUDWATCH_LOGS,
              Resource: {
                'Fn::Join': [
                  '',
                  [
                    'arn:',
                    { Ref: 'AWS::Partition' },
                    ':logs:',
                    { Ref: 'AWS::Region' },
                    ':',
                    { Ref: 'AWS::AccountId' },
                    ':log-group:*',
                  ],
                ],
              },
            },
          ],
        },
      },
    ]);
    const [stage] = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'));
    expect(stage?.DependsOn).toContain(accountId);
  });

  it('subscribes the alarm e-mail to the alarm topic', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });
});
