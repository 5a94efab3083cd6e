import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as rds from 'aws-cdk-lib/aws-rds';
import { Construct } from 'constructs';
import type { DataApiAction } from '../grants.ts';

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
 * database.grantDataApi(fn, dataApiGrants('BoxSave')); // rds-data:ExecuteStatement + secretsmanager:GetSecretValue
 * database.grantDataApi(docs, dataApiGrants('OpenApi')); // nothing at all
 * ```
 */
export class Database extends Construct {
  readonly clusterArn: string;
  readonly secretArn: string;
  readonly databaseName: string;
  /** The created cluster, or undefined when an existing one is used. */
  readonly cluster?: rds.DatabaseCluster;

  constructor(scope: Construct, id: string, props: DatabaseProps) {
    super(scope, id);
    this.databaseName = props.databaseName;
    if (props.existing) {
      this.clusterArn = props.existing.clusterArn;
      this.secretArn = props.existing.secretArn;
      return;
    }
    const cluster = this.createCluster(props);
    if (!cluster.secret) throw new Error('the cluster has no generated secret');
    this.cluster = cluster;
    this.clusterArn = cluster.clusterArn;
    this.secretArn = cluster.secret.secretArn;
  }

  /** The `DB_*` variables of `lib/config.ts`. */
  get environment(): Record<string, string> {
    return { DB_CLUSTER_ARN: this.clusterArn, DB_SECRET_ARN: this.secretArn, DB_NAME: this.databaseName };
  }

  /**
   * The Data API operations of `infra/grants.ts` on this cluster, and reading this secret; with
   * no operations, nothing (not even the secret).
   */
  // Not cluster.grantDataApiAccess(): it grants every Data API action (batch, transactions) and DescribeSecret.
  grantDataApi(grantee: iam.IGrantable, operations: readonly DataApiAction[]): void {
    if (operations.length === 0) return;
    const actions = operations.map((operation) => `rds-data:${operation}`);
    grantee.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources: [this.clusterArn] }));
    grantee.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.secretArn] }));
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
            new logs.LogGroup(this, 'FlowLogs', { retention: props.logRetentionDays as logs.RetentionDays, removalPolicy: RemovalPolicy.DESTROY }),
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

/** Findings that assume clients connect over the network; here only the Data API does. */
const acknowledgeDataApiOnly = (cluster: rds.DatabaseCluster): void => {
  Validations.of(cluster).acknowledge(
    {
      id: 'AwsSolutions-RDS6',
      reason: 'Clients reach the cluster only through the RDS Data API, which authenticates with IAM and the Secrets Manager secret; IAM database authentication applies to direct connections, which nobody makes.',
    },
    {
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating the generated secret needs a rotation function with a network path to Secrets Manager from the isolated subnets (an interface endpoint); the Data API reads the secret on every call, so rotation can be added (cluster.addRotationSingleUser) without code changes.',
    },
  );
};
