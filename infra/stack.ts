import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../lib/config.ts';
import { Auth } from './constructs/auth.ts';
import { ServiceAlarms } from './constructs/alarms.ts';
import { ServiceApi } from './constructs/api.ts';
import { Database } from './constructs/database.ts';
import { ServiceEvents } from './constructs/events.ts';
import { KeySweep } from './constructs/key-sweep.ts';
import { Migrations } from './constructs/migrations.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { appSettings } from './app-settings.ts';
import { WebApp } from './constructs/web-app.ts';
import { loadedRoutes } from './routes.ts';
import type { Settings } from './settings.ts';

/** The repository root: entries of the route table, package-lock.json and tsconfig.json are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface CargoStackProps extends StackProps {
  readonly settings: Settings;
  /** `false` skips esbuild (template tests); see {@link ServiceFunction}. @default true */
  readonly bundle?: boolean;
}

/**
 * The whole service in one stack: the database (or an existing one), the user pool (or an
 * existing one), one function and one API Gateway method per route declared in functions/, the
 * migrations run on deploy, and the alarms.
 *
 * @example
 * ```ts
 * new CargoStack(app, 'CargoBoxingService', { settings: readSettings((k) => app.node.tryGetContext(k), process.env) });
 * ```
 */
export class CargoStack extends Stack {
  constructor(scope: Construct, id: string, props: CargoStackProps) {
    super(scope, id, {
      description: 'Cargo location and boxing service (API Gateway, Lambda, Aurora Data API, Cognito)',
      ...props,
    });
    const { settings } = props;

    const database = new Database(this, 'Database', {
      databaseName: settings.databaseName,
      ...(settings.existingDatabase ? { existing: settings.existingDatabase } : {}),
      minCapacity: settings.minCapacity,
      maxCapacity: settings.maxCapacity,
      autoPauseMinutes: settings.autoPauseMinutes,
      deletionProtection: settings.deletionProtection,
      backupRetentionDays: settings.backupRetentionDays,
      logRetentionDays: settings.logRetentionDays,
    });
    const auth = new Auth(this, 'Auth', {
      ...(settings.userPoolId ? { existingUserPoolId: settings.userPoolId } : {}),
      deletionProtection: settings.deletionProtection,
    });
    const api = new ServiceApi(this, 'Api', {
      name: settings.stackName,
      stage: settings.stage,
      userPool: auth.userPool,
      throttlingRateLimit: settings.throttlingRateLimit,
      throttlingBurstLimit: settings.throttlingBurstLimit,
      logRetentionDays: settings.logRetentionDays,
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
    });
    const alarms = new ServiceAlarms(this, 'Alarms', {
      namespace: settings.stackName,
      ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
    });
    alarms.watchApi(api.restApi);

    const functionDefaults = {
      projectRoot: PROJECT_ROOT,
      environment: {
        SERVICE_PREFIX: settings.servicePrefix,
        ERP_BOX_VIEW: settings.erpBoxView,
        ...settings.functionEnvironment,
        ...database.environment,
        // The authorizer accepts any app client of the pool; the functions only this stack's.
        USER_POOL_CLIENT_ID: auth.client.userPoolClientId,
        POWERTOOLS_SERVICE_NAME: settings.stackName,
      },
      logRetentionDays: settings.logRetentionDays,
      logLevel: settings.logLevel,
      ...(props.bundle === false ? { bundle: false } : {}),
    };
    const migrations = new Migrations(this, 'Migrations', { ...functionDefaults, database });
    const sweep = new KeySweep(this, 'IdempotencySweep', { ...functionDefaults, database });
    migrations.runBefore(sweep.function.function);
    alarms.watchTask('IdempotencySweep', sweep.function.function);
    const relay = new ServiceEvents(this, 'Events', {
      ...functionDefaults,
      database,
      alarmTopic: alarms.topic,
      namespace: settings.stackName,
      ...(settings.eventBusName ? { existingBusName: settings.eventBusName } : {}),
      ...(settings.eventArchiveDays === undefined ? {} : { archiveDays: settings.eventArchiveDays }),
      ...(settings.erpWebhook ? { erpWebhook: settings.erpWebhook } : {}),
    });
    migrations.runBefore(relay.function.function);

    const documentConfig = loadConfig({
      SERVICE_PREFIX: settings.servicePrefix,
      ERP_BOX_VIEW: settings.erpBoxView,
      ...settings.functionEnvironment,
    });
    const { apiDocument, routeTable } = loadedRoutes();
    for (const route of routeTable(settings.servicePrefix)) {
      // The OpenAPI document, rendered here for the functions' own settings, is written beside its function's bundle.
      const files = route.spec?.describesApi ? { 'openapi.json': apiDocument(documentConfig) } : undefined;
      const fn = new ServiceFunction(this, route.id, {
        ...functionDefaults,
        ...(files ? { files } : {}),
        entry: route.entry,
        description: `${route.method} ${route.path}`,
      });
      database.connect(fn.function, route.id);
      api.addRoute(route, fn.function);
      alarms.watchFunction(route.id, fn.function, fn.logGroup);
      migrations.runBefore(fn.function);
    }

    const web = new WebApp(this, 'WebApp', {
      restApi: api.restApi,
      userPoolClientId: auth.client.userPoolClientId,
      // The functions' own configuration (functionEnvironment): prefix, SSCCs, patterns, ENFORCE_ERP_PLAN.
      settings: appSettings(documentConfig),
      logRetentionDays: settings.logRetentionDays,
    });
    new CfnOutput(this, 'AppUrl', {
      value: `https://${web.distribution.distributionDomainName}/`,
      description: 'The handheld app (open it on the devices); the API is also at {AppUrl}v1/',
    });
    new CfnOutput(this, 'ApiUrl', {
      value: `${api.restApi.url}v1/`,
      description: 'Base URL of the API: https://{api}.execute-api.{region}.amazonaws.com/{stage}/v1/',
    });
    new CfnOutput(this, 'UserPoolId', { value: auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', {
      value: auth.client.userPoolClientId,
      description: 'App client of the handhelds',
    });
    new CfnOutput(this, 'ClusterArn', { value: database.clusterArn });
    new CfnOutput(this, 'MasterSecretArn', {
      value: database.masterSecretArn,
      description: 'Master user of the cluster: for ops (npm run erp-view) and the migrator only',
    });
    new CfnOutput(this, 'ServiceSecretArn', {
      value: database.serviceSecret.secretArn,
      description: 'Service user of the routes that write',
    });
    new CfnOutput(this, 'ReaderSecretArn', {
      value: database.readerSecret.secretArn,
      description: 'Read-only user of the GET routes',
    });
    new CfnOutput(this, 'MaintenanceSecretArn', {
      value: database.maintenanceSecret.secretArn,
      description: 'Maintenance user of the scheduled tasks (hourly maintenance, event relay)',
    });
    new CfnOutput(this, 'MigrateFunctionName', { value: migrations.function.function.functionName });
    new CfnOutput(this, 'EventBusName', {
      value: relay.bus.eventBusName,
      description: 'EventBridge bus of the service events (source cargo.service): ERPs subscribe with a rule on it',
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn });
  }
}
