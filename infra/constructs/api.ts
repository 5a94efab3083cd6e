import { RemovalPolicy, Size, Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { MIN_COMPRESSION_BYTES } from '../compression.ts';
import type { RouteDefinition } from '../routes.ts';
import { addGatewayErrors } from './gateway-responses.ts';

export interface ServiceApiProps {
  /** The REST API's name: the `ApiName` of its CloudWatch metrics, so unique per stack (the stack name). */
  readonly name: string;
  readonly stage: string;
  readonly userPool: cognito.IUserPool;
  readonly throttlingRateLimit: number;
  readonly throttlingBurstLimit: number;
  readonly logRetentionDays: number;
  /** Set the region's API Gateway CloudWatch Logs role (an account-wide setting the access log needs). */
  readonly cloudWatchRole: boolean;
}

/** One JSON line per request: enough to follow a scanner's call without execution logs. */
const ACCESS_LOG_FORMAT = JSON.stringify({
  request_id: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  user_agent: '$context.identity.userAgent',
  user: '$context.authorizer.claims.sub',
  method: '$context.httpMethod',
  route: '$context.resourcePath',
  path: '$context.path',
  status: '$context.status',
  response_length: '$context.responseLength',
  latency_ms: '$context.responseLatency',
  integration_status: '$context.integration.status',
  integration_latency_ms: '$context.integration.latency',
  error_type: '$context.error.responseType',
  error: '$context.error.message',
  authorizer_error: '$context.authorizer.error',
  xray_trace_id: '$context.xrayTraceId',
});

/**
 * The REST API (API Gateway v1): one stage with throttling, JSON access logs, X-Ray and metrics,
 * a usage plan, the SPEC's error body on API Gateway's own errors, and one Cognito authorizer
 * shared by every method except the public ones.
 *
 * @example
 * ```ts
 * const api = new ServiceApi(this, 'Api', { stage: 'prod', userPool, throttlingRateLimit: 50, throttlingBurstLimit: 100, logRetentionDays: 90 });
 * api.addRoute(route, fn); // route from infra/routes.ts
 * ```
 */
export class ServiceApi extends Construct {
  readonly restApi: apigateway.RestApi;
  private readonly authorizer: apigateway.CognitoUserPoolsAuthorizer;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const throttle = { rateLimit: props.throttlingRateLimit, burstLimit: props.throttlingBurstLimit };
    this.restApi = new apigateway.RestApi(this, 'RestApi', {
      restApiName: props.name,
      description: 'Cargo location and boxing API for the warehouse handhelds',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      // The region's CloudWatch role, when asked for, is set below with a policy of the stack's own.
      cloudWatchRole: false,
      minCompressionSize: Size.bytes(MIN_COMPRESSION_BYTES),
      deployOptions: {
        stageName: props.stage,
        throttlingRateLimit: throttle.rateLimit,
        throttlingBurstLimit: throttle.burstLimit,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.custom(ACCESS_LOG_FORMAT),
        tracingEnabled: true,
        metricsEnabled: true,
      },
    });
    // Stage throttling protects the service; the plan is where per-client API keys would attach.
    this.restApi.addUsagePlan('UsagePlan', {
      description: 'Default plan of the stage; same limits as the stage throttling',
      throttle,
      apiStages: [{ api: this.restApi, stage: this.restApi.deploymentStage }],
    });
    addGatewayErrors(this.restApi);
    if (props.cloudWatchRole) this.setCloudWatchRole();
    this.authorizer = new apigateway.CognitoUserPoolsAuthorizer(this, 'Authorizer', {
      cognitoUserPools: [props.userPool],
    });

    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Requests are validated in each function with Zod, which answers with the SPEC error codes; an API Gateway validator would answer with a generic body first.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'The API serves authenticated warehouse handhelds behind stage throttling; a WAF web ACL can be associated with the stage by Ops if the account uses one.',
      },
      {
        id: 'AwsSolutions-APIG6',
        reason:
          'Execution logging needs the account-wide API Gateway CloudWatch role, shared by every API of the account; the access log records status, errors, authorizer errors and latencies of every request, and the functions log the rest.',
      },
    );
  }

  /**
   * The stage's access log needs the account-wide API Gateway CloudWatch role (no execution
   * logs): set by the stack only when asked, since it replaces whatever role the region has. Its
   * policy has the actions of AWS's AmazonAPIGatewayPushToCloudWatchLogs, on this account's log
   * groups in this region rather than on `*`. Both stay when the stack is deleted: other APIs of
   * the region may log through them by then.
   */
  private setCloudWatchRole(): void {
    const { partition, region, account } = Stack.of(this);
    const logGroups = `arn:${partition}:logs:${region}:${account}:log-group:*`;
    const role = new iam.Role(this, 'CloudWatchRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: "The region's API Gateway CloudWatch Logs role (access and execution logs of every API)",
      inlinePolicies: {
        PushToCloudWatchLogs: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              actions: [
                'logs:CreateLogGroup',
                'logs:CreateLogStream',
                'logs:DescribeLogGroups',
                'logs:DescribeLogStreams',
                'logs:FilterLogEvents',
                'logs:GetLogEvents',
                'logs:PutLogEvents',
              ],
              resources: [logGroups],
            }),
          ],
        }),
      },
    });
    role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    const setting = new apigateway.CfnAccount(this, 'Account', { cloudWatchRoleArn: role.roleArn });
    setting.applyRemovalPolicy(RemovalPolicy.RETAIN);
    this.restApi.deploymentStage.node.addDependency(setting);
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:*]',
      reason:
        "The region's API Gateway CloudWatch role writes the logs of every API of the account in the region, each to a log group that API names (access logs) or API Gateway names after it (execution logs).",
    });
  }

  /** Adds the route's method, with the Cognito authorizer unless the route is public. */
  addRoute(route: RouteDefinition, handler: lambda.IFunction): apigateway.Method {
    const integration = new apigateway.LambdaIntegration(handler, { allowTestInvoke: false });
    const resource = this.restApi.root.resourceForPath(route.path);
    if (route.access === 'public') {
      const method = resource.addMethod(route.method, integration, {
        authorizationType: apigateway.AuthorizationType.NONE,
      });
      Validations.of(method).acknowledge(
        {
          id: 'AwsSolutions-APIG4',
          reason: `${route.method} ${route.path} is public by design (SPEC: the OpenAPI document).`,
        },
        {
          id: 'AwsSolutions-COG4',
          reason: `${route.method} ${route.path} is public by design (SPEC: the OpenAPI document).`,
        },
      );
      return method;
    }
    return resource.addMethod(route.method, integration, {
      authorizationType: apigateway.AuthorizationType.COGNITO,
      authorizer: this.authorizer,
    });
  }
}
