import { Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeWebApp } from '../../web/build.ts';
import { contentSecurityPolicy, SECURITY_HEADERS } from '../../web/headers.ts';
import type { DeploymentSettings, RuntimeConfig } from '../../web/src/config.ts';

/**
 * CloudFront keeps an origin's 4xx and 5xx answers for 10 s by default, and honours the origin's
 * `Cache-Control: no-store` on an error only for 404, 410, 414 and 501
 * (https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/custom-error-pages-expiration.html):
 * a handheld retrying a 503 DATABASE_UNAVAILABLE after its Retry-After would meet the same
 * cached 503, and a 404 read just before the operator's own write would stay for 10 s. So the
 * error caching minimum TTL is 0 for every code CloudFront caches (416 it never caches:
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/HTTPStatusCodes.html).
 *
 * These settings are the distribution's, for every behaviour: they only set the caching time,
 * with no error page and no changed status, because a page here would also replace the API's
 * unified error body under `/v1/*` (a `404 → /index.html` fallback would answer an unknown box
 * with the app's page and 200). The app needs no such fallback: it is the one page `/` and names
 * its screens in the location hash. For the app's own files the TTL of 0 only means a missing
 * file is asked of the bucket again.
 */
const NO_ERROR_CACHING: cloudfront.ErrorResponse[] = [400, 403, 404, 405, 414, 500, 501, 502, 503, 504].map(
  (httpStatus) => ({ httpStatus, ttl: Duration.seconds(0) }),
);

export interface WebAppProps {
  /** The API: CloudFront forwards `/v1/*` to its stage, so app and API share one origin. */
  readonly restApi: apigateway.RestApi;
  /** The handhelds' app client, written into the app's `config.json` at deploy time. */
  readonly userPoolClientId: string;
  /**
   * The functions' settings the app is told in `config.json` (infra/app-settings.ts: the service
   * prefix, SSCCs, the code patterns, ENFORCE_ERP_PLAN), as `npm start` tells them.
   */
  readonly settings: DeploymentSettings;
  readonly logRetentionDays: number;
}

/**
 * The handheld app on AWS: its build (web/build.ts) in a private S3 bucket read by CloudFront
 * through origin access control, HTTPS only, with a strict Content-Security-Policy and the other
 * security headers, and `/v1/*` forwarded to the API stage (not cached, every viewer header but
 * Host passed on) so the app calls the API on its own origin, without CORS. The runtime
 * configuration (`config.json`: region, app client, and the functions' settings the app checks scans with) is written at deploy time.
 *
 * @example
 * ```ts
 * const web = new WebApp(this, 'WebApp', { restApi: api.restApi, userPoolClientId: auth.client.userPoolClientId, settings: appSettings(loadConfig({})), logRetentionDays: 30 });
 * new CfnOutput(this, 'AppUrl', { value: `https://${web.distribution.distributionDomainName}/` });
 * ```
 */
export class WebApp extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: WebAppProps) {
    super(scope, id);
    const region = Stack.of(this).region;

    const logs = new s3.Bucket(this, 'Logs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are delivered with an ACL.
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(props.logRetentionDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(logs).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This is the access log bucket of the app bucket and the distribution; logging it into itself would loop.',
    });

    this.bucket = new s3.Bucket(this, 'Site', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'site/',
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const headers = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Handheld app: strict CSP (own origin and Cognito sign-in only) and security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy([`https://cognito-idp.${region}.amazonaws.com`]),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: SECURITY_HEADERS['permissions-policy'] as string, override: true },
        ],
      },
    });

    // The API answers per caller: nothing cached (TTL 0), the Authorization header in the key
    // because CloudFront forwards it to an origin only from the cache policy (a policy with every
    // TTL 0 may name no header, hence the maximum of 1 s; every API answer says `no-store`, so
    // none is kept even that long: lib/http/answer-headers.ts, infra/gateway-errors.ts).
    const apiCache = new cloudfront.CachePolicy(this, 'ApiNoCache', {
      comment: 'API: never cached; Authorization forwarded',
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList('Authorization'),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Cargo handheld app and API',
      defaultRootObject: 'index.html',
      errorResponses: NO_ERROR_CACHING,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
      },
      additionalBehaviors: {
        '/v1/*': {
          origin: new origins.RestApiOrigin(props.restApi),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: apiCache,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          compress: true,
        },
      },
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Warehouses may be in any country; access is controlled by Cognito sign-in, not by geography.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'No WAF in front of authenticated, throttled handheld traffic (as for the API stage); Ops can associate a web ACL.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default CloudFront domain and certificate are used (no custom domain configured), which cannot pin the viewer TLS version; with a custom domain the minimum is TLSv1.2_2021.',
      },
    );

    const build = mkdtempSync(join(tmpdir(), 'cargo-web-'));
    writeWebApp(build);
    const deployment = new s3deploy.BucketDeployment(this, 'Deploy', {
      sources: [
        s3deploy.Source.asset(build),
        s3deploy.Source.jsonData('config.json', {
          region,
          user_pool_client_id: props.userPoolClientId,
          ...props.settings,
        } satisfies RuntimeConfig),
      ],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/', '/index.html', '/sw.js', '/config.json', '/manifest.webmanifest'],
      // The page, the worker and the configuration change in place: checked on every load.
      cacheControl: [s3deploy.CacheControl.noCache()],
      // The bucket holds this deployment's files only: they go with it when the stack is deleted,
      // so that the bucket (RemovalPolicy.DESTROY) can go too; CloudFormation deletes no bucket
      // that holds objects. Renaming this construct would delete the files it just deployed
      // (the old resource is deleted after the new one is created): keep its id.
      retainOnDelete: false,
      memoryLimit: 512,
      // Its own log group, so the copying function's logs are kept as long as every other function's.
      logGroup: new LogGroup(this, 'DeployLogs', {
        retention: props.logRetentionDays as RetentionDays,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    // The copying function is a singleton CDK places at the stack's root; cdk-nag 3 needs each
    // finding acknowledged by its own id.
    const stack = Stack.of(this);
    const copier =
      stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment')) ?? deployment.handlerRole;
    const named = (value: string, placeholder: string) => (Token.isUnresolved(value) ? placeholder : value);
    const assets = `arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-${named(stack.account, '<AWS::AccountId>')}-${named(stack.region, '<AWS::Region>')}/*`;
    const site = `<${stack.resolve(stack.getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket)) as string}.Arn>/*`;
    const copies =
      "CDK's BucketDeployment copies the app's files from the CDK asset bucket into the app bucket and invalidates the distribution; its grants are generated by aws-cdk-lib and scoped to those two buckets (CloudFront invalidation has no resource-level permission).";
    Validations.of(copier).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "CDK's BucketDeployment function uses the AWS managed basic execution role (its own logs only).",
      },
      ...[
        'Action::s3:GetObject*',
        'Action::s3:GetBucket*',
        'Action::s3:List*',
        'Action::s3:DeleteObject*',
        'Action::s3:Abort*',
        'Resource::*',
        `Resource::${site}`,
        `Resource::${assets}`,
      ].map((finding) => ({ id: `AwsSolutions-IAM5[${finding}]`, reason: copies })),
      { id: 'AwsSolutions-L1', reason: "The runtime of CDK's BucketDeployment function is chosen by aws-cdk-lib." },
    );
  }
}
