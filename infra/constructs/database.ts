import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as rds from 'aws-cdk-lib/aws-rds';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { dataApiGrants, databaseUser, type DatabaseUserKind } from '../grants.ts';

export interface DatabaseProps {
  readonly databaseName: string;
  /** Use this cluster (Data API enabled) and secret instead of creating them. */
  readonly existing?: { readonly clusterArn: string; readonly secretArn: string };
  readonly minCapacity: number;
  readonly maxCapacity: number;
  readonly autoPauseMinutes: number;
  readonly deletionProtection: boolean;
  readonly backupRetentionDays: number;
  readonly logRetentionDays: number;
}

/**
 * The Aurora PostgreSQL database the functions reach through the RDS Data API only: either a new
 * Aurora Serverless v2 cluster (Data API on, encrypted, generated credentials in Secrets Manager,
 * in a VPC of isolated subnets nobody connects to) or an existing cluster and secret by ARN.
 *
 * The functions stay outside any VPC; the grants below name this cluster and this secret only.
 *
 * @example
 * ```ts
 * const database = new Database(this, 'Database', { databaseName: 'cargo', minCapacity: 0, maxCapacity: 4, ... });
 * database.connect(fn, 'BoxSave'); // rds-data:ExecuteStatement, the service user's secret (read and DB_SECRET_ARN)
 * database.connect(info, 'BoxInfo'); // rds-data:ExecuteStatement, the reader's secret
 * database.connect(relay, 'EventRelay'); // rds-data:ExecuteStatement, the maintenance user's secret
 * database.connect(docs, 'OpenApi'); // nothing at all
 * ```
 */
export class Database extends Construct {
  readonly clusterArn: string;
  /** The master user's secret (the cluster's generated one, or the existing one given): only the migrator reads it, to create the roles. */
  readonly masterSecretArn: string;
  /** The migration owner's secret: owns the `cargo` schema; the migrator signs in with it. */
  readonly ownerSecret: secretsmanager.Secret;
  /** The service user's secret: what the routes that write sign in with. */
  readonly serviceSecret: secretsmanager.Secret;
  /** The reader's secret: what the routes that only read (every GET) sign in with. */
  readonly readerSecret: secretsmanager.Secret;
  /** The maintenance user's secret: what the scheduled tasks (the hourly maintenance, the event relay) sign in with. */
  readonly maintenanceSecret: secretsmanager.Secret;
  readonly databaseName: string;
  /** The created cluster, or undefined when an existing one is used. */
  readonly cluster?: rds.DatabaseCluster;

  constructor(scope: Construct, id: string, props: DatabaseProps) {
    super(scope, id);
    this.databaseName = props.databaseName;
    this.ownerSecret = userSecret(
      this,
      'MigrationOwnerSecret',
      'cargo_owner',
      'Migration owner of the cargo schema (role created by the migration function)',
    );
    this.serviceSecret = userSecret(
      this,
      'ServiceUserSecret',
      'cargo_service',
      'Service user of the routes that write: read/write on cargo, read on the ERP view',
    );
    this.readerSecret = userSecret(
      this,
      'ReaderUserSecret',
      'cargo_reader',
      'Reader of the GET routes: read on cargo and on the ERP view, nothing else',
    );
    this.maintenanceSecret = userSecret(
      this,
      'MaintenanceUserSecret',
      'cargo_maintenance',
      'Maintenance user of the scheduled tasks: location history maintenance, expired keys, the event relay',
    );
    if (props.existing) {
      this.clusterArn = props.existing.clusterArn;
      this.masterSecretArn = props.existing.secretArn;
      return;
    }
    const cluster = this.createCluster(props);
    if (!cluster.secret) throw new Error('the cluster has no generated secret');
    this.cluster = cluster;
    this.clusterArn = cluster.clusterArn;
    this.masterSecretArn = cluster.secret.secretArn;
  }

  /** The `DB_*` variables of `lib/config.ts` every function shares; {@link connect} adds its secret. */
  get environment(): Record<string, string> {
    return { DB_CLUSTER_ARN: this.clusterArn, DB_NAME: this.databaseName };
  }

  /** The migration function's: the master's and the other users' secrets, to create the roles. */
  get migrationEnvironment(): Record<string, string> {
    return {
      DB_MASTER_SECRET_ARN: this.masterSecretArn,
      DB_SERVICE_SECRET_ARN: this.serviceSecret.secretArn,
      DB_READER_SECRET_ARN: this.readerSecret.secretArn,
      DB_MAINTENANCE_SECRET_ARN: this.maintenanceSecret.secretArn,
    };
  }

  /** The secret a database user signs in with. */
  secretOf(user: DatabaseUserKind): string {
    const secrets: Record<DatabaseUserKind, secretsmanager.Secret> = {
      owner: this.ownerSecret,
      service: this.serviceSecret,
      reader: this.readerSecret,
      maintenance: this.maintenanceSecret,
    };
    return secrets[user].secretArn;
  }

  /**
   * Connects a function as its file declares (infra/grants.ts): its Data API operations on this
   * cluster, reading its database user's secret, and that secret in its `DB_SECRET_ARN`. A
   * function without operations gets nothing, not even a secret.
   */
  // Not cluster.grantDataApiAccess(): it grants every Data API action (batch, transactions) and DescribeSecret.
  connect(fn: lambda.Function, functionId: string): void {
    const operations = dataApiGrants(functionId);
    const user = databaseUser(functionId);
    if (operations.length === 0 || user === undefined) return;
    const actions = operations.map((operation) => `rds-data:${operation}`);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [this.clusterArn] }));
    fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.secretOf(user)] }),
    );
    fn.addEnvironment('DB_SECRET_ARN', this.secretOf(user));
  }

  /**
   * The migrator's other secrets: the master's (it creates the roles) and the service user's, the
   * reader's and the maintenance user's, whose passwords it gives their roles; {@link connect}
   * gives it the owner's.
   */
  grantMigrationSecrets(grantee: iam.IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [
          this.masterSecretArn,
          this.serviceSecret.secretArn,
          this.readerSecret.secretArn,
          this.maintenanceSecret.secretArn,
        ],
      }),
    );
  }

  private createCluster(props: DatabaseProps): rds.DatabaseCluster {
    // Only the cluster lives here: isolated subnets, no NAT, no route to the internet.
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'database', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
      flowLogs: {
        rejected: {
          destination: ec2.FlowLogDestination.toCloudWatchLogs(
            new logs.LogGroup(this, 'FlowLogs', {
              retention: props.logRetentionDays as logs.RetentionDays,
              removalPolicy: RemovalPolicy.DESTROY,
            }),
          ),
          trafficType: ec2.FlowLogTrafficType.REJECT,
        },
      },
    });
    const cluster = new rds.DatabaseCluster(this, 'Cluster', {
      engine: rds.DatabaseClusterEngine.auroraPostgres({ version: rds.AuroraPostgresEngineVersion.VER_17_9 }),
      writer: rds.ClusterInstance.serverlessV2('Writer', { autoMinorVersionUpgrade: true, publiclyAccessible: false }),
      serverlessV2MinCapacity: props.minCapacity,
      serverlessV2MaxCapacity: props.maxCapacity,
      ...(props.minCapacity === 0 ? { serverlessV2AutoPauseDuration: Duration.minutes(props.autoPauseMinutes) } : {}),
      enableDataApi: true,
      credentials: rds.Credentials.fromGeneratedSecret('cargo_admin'),
      defaultDatabaseName: props.databaseName,
      storageEncrypted: true,
      deletionProtection: props.deletionProtection,
      removalPolicy: RemovalPolicy.SNAPSHOT,
      backup: { retention: Duration.days(props.backupRetentionDays) },
      copyTagsToSnapshot: true,
      vpc,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED },
    });
    acknowledgeDataApiOnly(cluster);
    return cluster;
  }
}

/**
 * A generated database user secret: letters and digits only, so the migrator can write the
 * password into CREATE ROLE (DDL takes no parameters) with nothing to escape.
 */
const userSecret = (scope: Construct, id: string, username: string, description: string): secretsmanager.Secret => {
  const secret = new secretsmanager.Secret(scope, id, {
    description,
    generateSecretString: {
      secretStringTemplate: JSON.stringify({ username }),
      generateStringKey: 'password',
      excludePunctuation: true,
      passwordLength: 40,
    },
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'The migration function sets the role password from this secret on every run; rotation needs a rotation function with a network path to Secrets Manager and the cluster from the isolated subnets. The Data API reads the secret on every call, so rotation can be added without code changes.',
  });
  return secret;
};

/** Findings that assume clients connect over the network; here only the Data API does. */
const acknowledgeDataApiOnly = (cluster: rds.DatabaseCluster): void => {
  Validations.of(cluster).acknowledge(
    {
      id: 'AwsSolutions-RDS6',
      reason:
        'Clients reach the cluster only through the RDS Data API, which authenticates with IAM and the Secrets Manager secret; IAM database authentication applies to direct connections, which nobody makes.',
    },
    {
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotating the generated secret needs a rotation function with a network path to Secrets Manager from the isolated subnets (an interface endpoint); the Data API reads the secret on every call, so rotation can be added (cluster.addRotationSingleUser) without code changes.',
    },
  );
};
