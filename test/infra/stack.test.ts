import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { Match } from 'aws-cdk-lib/assertions';
import type { CfnElement } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { CALL_GRACE_MS } from '../../lib/db/retry.ts';
import { errorCatalogue } from '../../lib/errors/catalogue.ts';
import { GATEWAY_ERRORS } from '../../infra/gateway-errors.ts';
import type { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { dataApiGrants } from '../../infra/grants.ts';
import { loadRoutes } from '../../infra/routes.ts';
import { resourcesOf, synthesize } from './stack-fixture.ts';

const { routeTable } = await loadRoutes();

const { stack, template } = synthesize();
const routes = routeTable('cargo');
const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);
const serviceFunction = (id: string) => stack.node.findChild(id) as ServiceFunction;
const functions = resourcesOf(template, 'AWS::Lambda::Function');
const routeFunctions = routes.map((route) => ({
  route,
  resource: functions[logicalId(serviceFunction(route.id).function)]!,
}));
const migrateFunction =
  functions[logicalId((stack.node.findChild('Migrations').node.findChild('Migrate') as ServiceFunction).function)]!;
const clusterArn = {
  'Fn::Join': ['', Match.arrayWith([':cluster:', { Ref: Match.stringLikeRegexp('^DatabaseCluster') }])],
};
const secretArn = { Ref: Match.stringLikeRegexp('^DatabaseClusterSecretAttachment') };
const secretIds = Object.keys(resourcesOf(template, 'AWS::SecretsManager::Secret'));
const serviceSecretId = secretIds.find((id) => id.startsWith('DatabaseServiceUserSecret'))!;
const ownerSecretId = secretIds.find((id) => id.startsWith('DatabaseMigrationOwnerSecret'))!;
const readerSecretId = secretIds.find((id) => id.startsWith('DatabaseReaderUserSecret'))!;
const maintenanceSecretId = secretIds.find((id) => id.startsWith('DatabaseMaintenanceUserSecret'))!;
/** The secret a route's function signs in with: the reader's for a GET, the service user's for a write. */
const userSecretOf = (route: { method: string }) => ({
  Ref: route.method === 'GET' ? readerSecretId : serviceSecretId,
});

describe('functions', () => {
  it('creates one function per route, described by its method and path', () => {
    for (const { route, resource } of routeFunctions)
      expect(resource.Properties.Description).toBe(`${route.method} ${route.path}`);
  });

  it('runs every service function on nodejs24.x, arm64, with X-Ray, JSON logs in its own log group, outside any VPC', () => {
    for (const resource of [...routeFunctions.map((f) => f.resource), migrateFunction]) {
      expect(resource.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) } },
      });
      expect(resource.Properties.VpcConfig).toBeUndefined();
    }
  });

  it('reserves no concurrency of less than 10 on any function (a new account, whose limit is 10, cannot reserve any)', () => {
    const reserved = Object.entries(functions)
      .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined)
      .map(([id, fn]) => [id, fn.Properties.ReservedConcurrentExecutions]);
    expect(reserved.filter(([, n]) => (n as number) < 10)).toEqual([]);
  });

  it('answers before API Gateway gives up: route timeout under 29 s, a Data API call abandoned 3 s before it', () => {
    for (const { resource } of routeFunctions) {
      const { Timeout, Environment } = resource.Properties;
      expect(Timeout).toBeLessThan(29);
      expect(Number(Environment.Variables.DB_RETRY_BUDGET_MS) + CALL_GRACE_MS).toBeLessThanOrEqual(
        (Timeout - 3) * 1000,
      );
    }
  });

  it('gives every function the configuration lib/config.ts reads, and never the local DATA_API_ENDPOINT', () => {
    for (const { route, resource } of routeFunctions) {
      const variables = resource.Properties.Environment.Variables;
      if (route.id === 'OpenApi') expect(variables).not.toHaveProperty('DB_SECRET_ARN');
      else expect(variables.DB_SECRET_ARN).toEqual(userSecretOf(route));
      expect(variables).toMatchObject({
        SERVICE_PREFIX: 'cargo',
        ERP_BOX_VIEW: 'erp.v_box_info',
        DB_NAME: 'cargo',
        DB_CLUSTER_ARN: expect.anything(),
        DB_RETRY_BUDGET_MS: '20000',
        POWERTOOLS_SERVICE_NAME: 'CargoBoxingService',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
      });
      expect(variables).not.toHaveProperty('DATA_API_ENDPOINT');
    }
  });
});

describe('permissions', () => {
  const policies = resourcesOf(template, 'AWS::IAM::Policy');
  const statementsOf = (fn: ServiceFunction) => {
    const roleId = logicalId(fn.function.role as never);
    const policy = Object.values(policies).find((p) =>
      p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId),
    );
    return (policy?.Properties.PolicyDocument.Statement ?? []) as { Action: string | string[]; Resource: unknown }[];
  };
  const actions = (statement: { Action: string | string[] }) => [statement.Action].flat();

  it('never grants Data API or Secrets Manager actions on a wildcard resource', () => {
    for (const policy of Object.values(policies)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as {
        Action: string | string[];
        Resource: unknown;
      }[]) {
        if (!actions(statement).some((a) => a.startsWith('rds-data:') || a.startsWith('secretsmanager:'))) continue;
        expect(JSON.stringify(statement.Resource)).not.toContain('*');
      }
    }
  });

  it("lets a route function run single statements on this cluster and read its own database user's secret, nothing more", () => {
    for (const route of routes.filter((r) => r.id !== 'OpenApi')) {
      const statements = statementsOf(serviceFunction(route.id));
      const data = statements.filter((s) =>
        actions(s).some((a) => a.startsWith('rds-data:') || a.startsWith('secretsmanager:')),
      );
      expect(data).toEqual([
        expect.objectContaining({ Action: 'rds-data:ExecuteStatement', Resource: expect.anything() }),
        expect.objectContaining({ Action: 'secretsmanager:GetSecretValue', Resource: expect.anything() }),
      ]);
      expect(data[0]!.Resource).toEqual(
        expect.objectContaining({ 'Fn::Join': expect.arrayContaining([expect.arrayContaining([':cluster:'])]) }),
      );
      expect(data[1]!.Resource).toEqual(userSecretOf(route));
    }
  });

  it('gives the public GET /v1/openapi.json function no Data API action and no secret at all', () => {
    const statements = statementsOf(serviceFunction('OpenApi'));
    expect(
      statements.flatMap(actions).filter((a) => a.startsWith('rds-data:') || a.startsWith('secretsmanager:')),
    ).toEqual([]);
  });

  it('grants each function exactly the Data API operations infra/grants.ts declares for it', () => {
    for (const route of routes) {
      const granted = statementsOf(serviceFunction(route.id))
        .flatMap(actions)
        .filter((a) => a.startsWith('rds-data:'))
        .sort();
      expect(granted).toEqual(
        dataApiGrants(route.id)
          .map((operation) => `rds-data:${operation}`)
          .sort(),
      );
    }
  });

  it('lets only the migration function use transactions', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: [
              'rds-data:BeginTransaction',
              'rds-data:CommitTransaction',
              'rds-data:ExecuteStatement',
              'rds-data:RollbackTransaction',
            ],
            Resource: clusterArn,
          }),
          Match.objectLike({
            Action: 'secretsmanager:GetSecretValue',
            Resource: [
              secretArn,
              { Ref: maintenanceSecretId },
              { Ref: ownerSecretId },
              { Ref: readerSecretId },
              { Ref: serviceSecretId },
            ],
          }),
        ]),
      },
    });
    const withTransactions = Object.values(policies).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('rds-data:BeginTransaction'),
    );
    expect(withTransactions).toHaveLength(1);
  });

  it('lets each function write only to its own log group, without AWSLambdaBasicExecutionRole', () => {
    for (const route of routes) {
      const fn = serviceFunction(route.id);
      const logs = statementsOf(fn).filter((s) => actions(s).some((a) => a.startsWith('logs:')));
      expect(logs).toEqual([
        {
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Effect: 'Allow',
          Resource: { 'Fn::GetAtt': [logicalId(fn.logGroup), 'Arn'] },
        },
      ]);
      expect(
        template.toJSON().Resources[logicalId(fn.function.role as never)].Properties.ManagedPolicyArns,
      ).toBeUndefined();
    }
  });
});

describe('API', () => {
  const methods = stack.node.findAll().filter((c): c is apigateway.Method => c instanceof apigateway.Method);
  const authorizerId = Object.keys(resourcesOf(template, 'AWS::ApiGateway::Authorizer'))[0];

  it("leaves the region's API Gateway CloudWatch role alone by default: one setting for the whole account", () => {
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  it('has one Cognito user-pools authorizer', () => {
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'COGNITO_USER_POOLS',
      IdentitySource: 'method.request.header.Authorization',
    });
  });

  it('adds one method per route, integrated with its own function, guarded by the authorizer unless public', () => {
    expect(methods.map((m) => `${m.httpMethod} ${m.resource.path}`).sort()).toEqual(
      routes.map((r) => `${r.method} ${r.path}`).sort(),
    );
    template.resourceCountIs('AWS::ApiGateway::Method', routes.length);
    for (const route of routes) {
      const method = methods.find((m) => m.httpMethod === route.method && m.resource.path === route.path)!;
      const properties = template.toJSON().Resources[logicalId(method)].Properties;
      expect(JSON.stringify(properties.Integration.Uri)).toContain(logicalId(serviceFunction(route.id).function));
      expect(properties.Integration.Type).toBe('AWS_PROXY');
      if (route.access === 'public') expect(properties).toMatchObject({ AuthorizationType: 'NONE' });
      else
        expect(properties).toMatchObject({
          AuthorizationType: 'COGNITO_USER_POOLS',
          AuthorizerId: { Ref: authorizerId },
        });
    }
  });

  it('serves everything from one stage with throttling, access logs, X-Ray and metrics', () => {
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.resourceCountIs('AWS::ApiGateway::Stage', 1);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context\\.requestId') },
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          MetricsEnabled: true,
          ThrottlingRateLimit: 50,
          ThrottlingBurstLimit: 100,
        }),
      ],
    });
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', { Throttle: { RateLimit: 50, BurstLimit: 100 } });
  });

  it('renders every API Gateway error as the unified error body with the catalogue code, domain and request id', () => {
    const responses = Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse'));
    expect(responses).toHaveLength(GATEWAY_ERRORS.length);
    for (const response of responses) {
      const body = JSON.parse(response.Properties.ResponseTemplates['application/json']);
      const entry = errorCatalogue[body.error_code as keyof typeof errorCatalogue];
      expect(body).toEqual({
        error_code: expect.any(String),
        message: expect.any(String),
        domain: entry.domain,
        request_id: '$context.requestId',
      });
    }
  });

  it.each([
    ['MISSING_AUTHENTICATION_TOKEN', '404', 'ROUTE_NOT_FOUND', 'request'],
    ['UNAUTHORIZED', '401', 'UNAUTHORIZED', 'auth'],
    ['ACCESS_DENIED', '403', 'FORBIDDEN', 'auth'],
    ['THROTTLED', '429', 'THROTTLED', 'request'],
    ['REQUEST_TOO_LARGE', '413', 'PAYLOAD_TOO_LARGE', 'request'],
    ['BAD_REQUEST_BODY', '400', 'VALIDATION_ERROR', 'request'],
    ['DEFAULT_4XX', undefined, 'VALIDATION_ERROR', 'request'],
    ['DEFAULT_5XX', undefined, 'INTERNAL_ERROR', 'system'],
  ])('answers API Gateway %s with status %s and %s (%s)', (type, status, code, domain) => {
    const [response] = Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse')).filter(
      (r) => r.Properties.ResponseType === type,
    );
    expect(response?.Properties.StatusCode).toBe(status);
    expect(JSON.parse(response!.Properties.ResponseTemplates['application/json'])).toMatchObject({
      error_code: code,
      domain,
    });
  });

  it('marks every API Gateway error Cache-Control: no-store, so that no cache keeps one', () => {
    const responses = Object.values(resourcesOf(template, 'AWS::ApiGateway::GatewayResponse'));
    expect(responses).toHaveLength(GATEWAY_ERRORS.length);
    for (const response of responses)
      expect(response.Properties.ResponseParameters).toMatchObject({
        'gatewayresponse.header.Cache-Control': "'no-store'",
      });
  });

  it('compresses answers of 1 KiB or more for a client that accepts it', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { MinimumCompressionSize: 1024 });
  });

  it('tells a throttled handheld when to retry', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" },
    });
  });
});

describe('database', () => {
  it('creates an encrypted Aurora Serverless v2 PostgreSQL cluster with the Data API, scaling to zero, protected and backed up', () => {
    template.resourceCountIs('AWS::RDS::DBCluster', 1);
    template.hasResourceProperties('AWS::RDS::DBCluster', {
      Engine: 'aurora-postgresql',
      EngineVersion: Match.stringLikeRegexp('^17\\.'),
      EnableHttpEndpoint: true,
      StorageEncrypted: true,
      DeletionProtection: true,
      BackupRetentionPeriod: 7,
      DatabaseName: 'cargo',
      ServerlessV2ScalingConfiguration: { MinCapacity: 0, MaxCapacity: 4, SecondsUntilAutoPause: 1800 },
    });
    template.hasResourceProperties('AWS::RDS::DBInstance', {
      DBInstanceClass: 'db.serverless',
      PubliclyAccessible: false,
    });
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ GenerateStringKey: 'password' }),
    });
  });

  it('keeps the cluster in isolated subnets with no NAT gateway or internet gateway', () => {
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.resourceCountIs('AWS::EC2::InternetGateway', 0);
  });
});

describe('migrations', () => {
  const [triggerId, trigger] = Object.entries(resourcesOf(template, 'Custom::Trigger'))[0]!;

  it('runs the migration function synchronously after the cluster and its writer exist, failing the deploy if it throws', () => {
    expect(trigger.Properties).toMatchObject({
      InvocationType: 'RequestResponse',
      Timeout: '780000',
      ExecuteOnHandlerChange: true,
    });
    expect(trigger.Properties.HandlerArn).toEqual({
      Ref: expect.stringMatching(/^MigrationsMigrateFunctionCurrentVersion/),
    });
    expect(trigger.DependsOn).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^DatabaseCluster[0-9A-F]{8}$/),
        expect.stringMatching(/^DatabaseClusterWriter/),
      ]),
    );
  });

  it("gives the migration function 12 minutes: a paused cluster's wait (the 120 s retry budget), then a year of history indexed again", () => {
    expect(migrateFunction.Properties).toMatchObject({
      Timeout: 720,
      Environment: { Variables: expect.objectContaining({ DB_RETRY_BUDGET_MS: '120000' }) },
    });
  });

  it("fails a migration that runs too long while the Trigger's provider still runs, so the deployment fails then instead of waiting CloudFormation's hour", () => {
    const [provider] = Object.entries(functions).filter(([id]) =>
      id.startsWith('AWSCDKTriggerCustomResourceProviderCustomResourceProviderHandler'),
    );
    const providerTimeout = provider![1].Properties.Timeout as number;
    const triggerWait = Number(trigger.Properties.Timeout) / 1000;
    // The provider waits longer than the function may run (it hears the function's own timeout),
    // and has two minutes left after that wait to answer CloudFormation.
    expect(triggerWait).toBeGreaterThanOrEqual(migrateFunction.Properties.Timeout + 60);
    expect(providerTimeout - triggerWait).toBeGreaterThanOrEqual(120);
  });

  it('updates the route functions only after the migrations of the deployment ran', () => {
    for (const route of routes)
      expect(functions[logicalId(serviceFunction(route.id).function)]!.DependsOn).toContain(triggerId);
  });
});

describe('users', () => {
  it('creates a user pool without self sign-up, with a strong password policy', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: {
        PasswordPolicy: {
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      DeletionProtection: 'ACTIVE',
    });
  });

  it('creates the operator, supervisor and integration groups the functions check, each described as what it may do', () => {
    // What an admin reads when putting a user in a group.
    for (const [group, says] of [
      ['operator', 'May scan, save boxes and query'],
      ['supervisor', 'void scans'],
      ['integration', 'may only read'],
    ])
      template.hasResourceProperties('AWS::Cognito::UserPoolGroup', {
        GroupName: group,
        Description: Match.stringLikeRegexp(says as string),
      });
  });

  it('creates a public app client for the handhelds: password sign-in and refresh tokens, no OAuth', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayWith([
        'ALLOW_USER_PASSWORD_AUTH',
        'ALLOW_USER_SRP_AUTH',
        'ALLOW_REFRESH_TOKEN_AUTH',
      ]),
      PreventUserExistenceErrors: 'ENABLED',
    });
  });
});

describe('alarms', () => {
  const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm'));
  const topicId = Object.keys(resourcesOf(template, 'AWS::SNS::Topic'))[0];
  /** Every route function's log has one metric filter counting its answers with `errorCode` as `metricName`. */
  const expectCountedFromEveryRoute = (errorCode: string, metricName: string) => {
    const filters = Object.values(resourcesOf(template, 'AWS::Logs::MetricFilter')).filter((f) =>
      f.Properties.FilterPattern.includes(`"${errorCode}"`),
    );
    expect(filters).toHaveLength(routes.length);
    for (const filter of filters) {
      expect(filter.Properties).toMatchObject({
        FilterPattern: `{ $.error_code = "${errorCode}" }`,
        MetricTransformations: [{ MetricNamespace: 'CargoBoxingService', MetricName: metricName, MetricValue: '1' }],
      });
    }
  };

  it("alarms on API 5xx, on Data API unavailability, and on each route function's errors and throttles", () => {
    // Two more: the event relay's stuck-event alarm (test/infra/events.test.ts) and the hourly maintenance's errors (below).
    expect(alarms).toHaveLength(3 + 2 * routes.length + 2);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/ApiGateway', MetricName: '5XXError' });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'CargoBoxingService',
      MetricName: 'DatabaseUnavailable',
    });
    for (const route of routes) {
      const fnRef = { Ref: logicalId(serviceFunction(route.id).function) };
      for (const metric of ['Errors', 'Throttles']) {
        template.hasResourceProperties('AWS::CloudWatch::Alarm', {
          Namespace: 'AWS/Lambda',
          MetricName: metric,
          Dimensions: [{ Name: 'FunctionName', Value: fnRef }],
        });
      }
    }
  });

  it('alarms when the hourly maintenance fails: history months ahead and retention, and expired keys, stop otherwise', () => {
    const sweep = (stack.node.findChild('IdempotencySweep').node.findChild('Sweep') as ServiceFunction).function;
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(sweep) } }],
      AlarmActions: [{ Ref: topicId }],
    });
  });

  it('counts DATABASE_UNAVAILABLE errors from every route function log', () => {
    expectCountedFromEveryRoute('DATABASE_UNAVAILABLE', 'DatabaseUnavailable');
  });

  it('alarms at the first ERP_VIEW_UNAVAILABLE answer of any route function (the ERP view missing or unreadable)', () => {
    expectCountedFromEveryRoute('ERP_VIEW_UNAVAILABLE', 'ErpViewUnavailable');
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'CargoBoxingService',
      MetricName: 'ErpViewUnavailable',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('notifies the alarm topic on alarm and on recovery', () => {
    for (const alarm of alarms)
      expect(alarm.Properties).toMatchObject({ AlarmActions: [{ Ref: topicId }], OKActions: [{ Ref: topicId }] });
  });
});

describe('idempotency keys', () => {
  const sweep =
    functions[
      logicalId((stack.node.findChild('IdempotencySweep').node.findChild('Sweep') as ServiceFunction).function)
    ]!;

  it('sweeps expired keys every hour with its own function', () => {
    expect(sweep.Properties.Description).toMatch(/idempotency keys/);
    const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).filter(
      (rule) => rule.Properties.ScheduleExpression === 'rate(1 hour)',
    );
    expect(rules).toEqual([
      expect.objectContaining({
        Properties: expect.objectContaining({
          ScheduleExpression: 'rate(1 hour)',
          State: 'ENABLED',
          Targets: [
            expect.objectContaining({
              Arn: {
                'Fn::GetAtt': [
                  logicalId(
                    (stack.node.findChild('IdempotencySweep').node.findChild('Sweep') as ServiceFunction).function,
                  ),
                  'Arn',
                ],
              },
            }),
          ],
        }),
      }),
    ]);
  });

  it('lets the sweep function run single statements only, on this cluster', () => {
    const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.Roles).includes('IdempotencySweep'),
    );
    const actions = policies.flatMap((p) =>
      p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()),
    );
    expect(actions).toContain('rds-data:ExecuteStatement');
    expect(actions).not.toContain('rds-data:BeginTransaction');
  });
});

describe('database users (least privilege in the database)', () => {
  const secrets = resourcesOf(template, 'AWS::SecretsManager::Secret');
  const policies = resourcesOf(template, 'AWS::IAM::Policy');
  const masterSecret = { Ref: Object.keys(resourcesOf(template, 'AWS::SecretsManager::SecretTargetAttachment'))[0]! };
  const readers = (secretRef: unknown) =>
    Object.values(policies).filter((p) =>
      (p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).some(
        (s) =>
          [s.Action].flat().includes('secretsmanager:GetSecretValue') &&
          JSON.stringify(s.Resource).includes(JSON.stringify(secretRef)),
      ),
    );

  it('generates a secret for the service user, the reader, the maintenance user and the migration owner, passwords of letters and digits only', () => {
    expect(secretIds).toHaveLength(4 + 1); // and the cluster's master secret
    for (const [id, username] of [
      [serviceSecretId, 'cargo_service'],
      [readerSecretId, 'cargo_reader'],
      [maintenanceSecretId, 'cargo_maintenance'],
      [ownerSecretId, 'cargo_owner'],
    ] as const) {
      expect(secrets[id]!.Properties.GenerateSecretString).toMatchObject({
        SecretStringTemplate: JSON.stringify({ username }),
        GenerateStringKey: 'password',
        ExcludePunctuation: true,
        PasswordLength: 40,
      });
    }
  });

  it("points every GET function at the reader's secret, every other at the service user's, never the master's", () => {
    for (const { route, resource } of routeFunctions.filter((f) => f.route.id !== 'OpenApi')) {
      expect(resource.Properties.Environment.Variables.DB_SECRET_ARN).toEqual(userSecretOf(route));
      expect(JSON.stringify(resource.Properties.Environment.Variables)).not.toContain(
        'DatabaseClusterSecretAttachment',
      );
    }
  });

  it("points the scheduled tasks (the hourly maintenance, the event relay) at the maintenance user's secret", () => {
    const sweep = (stack.node.findChild('IdempotencySweep').node.findChild('Sweep') as ServiceFunction).function;
    const relay = (stack.node.findChild('Events').node.findChild('Relay') as ServiceFunction).function;
    for (const fn of [sweep, relay])
      expect(functions[logicalId(fn)]!.Properties.Environment.Variables.DB_SECRET_ARN).toEqual({
        Ref: maintenanceSecretId,
      });
  });

  it("signs the migrator in as the owner, with the master's and the other users' secrets to create the roles", () => {
    expect(migrateFunction.Properties.Environment.Variables).toMatchObject({
      DB_SECRET_ARN: { Ref: ownerSecretId },
      DB_MASTER_SECRET_ARN: {
        Ref: Object.keys(resourcesOf(template, 'AWS::SecretsManager::SecretTargetAttachment'))[0],
      },
      DB_SERVICE_SECRET_ARN: { Ref: serviceSecretId },
      DB_READER_SECRET_ARN: { Ref: readerSecretId },
      DB_MAINTENANCE_SECRET_ARN: { Ref: maintenanceSecretId },
    });
  });

  it("lets the routes that write read the service user's secret, the GET routes the reader's, the tasks the maintenance user's, and the migrator each", () => {
    const writers = routes.filter((r) => r.method !== 'GET').length;
    const getters = routes.filter((r) => r.method === 'GET' && r.id !== 'OpenApi').length;
    // Each with the migrator; the maintenance user's: the event relay and the hourly maintenance.
    expect(readers({ Ref: serviceSecretId })).toHaveLength(writers + 1);
    expect(readers({ Ref: readerSecretId })).toHaveLength(getters + 1);
    expect(readers({ Ref: maintenanceSecretId })).toHaveLength(2 + 1);
  });

  it("lets only the migration function read the master's and the owner's secrets", () => {
    expect(readers(masterSecret)).toHaveLength(1);
    expect(readers(masterSecret)[0]).toEqual(readers({ Ref: ownerSecretId })[0]);
    expect(readers({ Ref: ownerSecretId })).toHaveLength(1);
    expect(JSON.stringify(readers({ Ref: ownerSecretId })[0])).toContain('rds-data:BeginTransaction');
  });
});
