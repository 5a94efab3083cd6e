import { App, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.ts';
import { appSettings } from '../../infra/app-settings.ts';
import { WebApp } from '../../infra/constructs/web-app.ts';
import { localRuntimeConfig } from '../../local/web.ts';

/** The app's hosting on its own, beside a REST API like the stack's (stage `prod`). */
const synthesize = () => {
  const app = new App();
  const stack = new Stack(app, 'Web', { env: { region: 'eu-central-1', account: '123456789012' } });
  const restApi = new apigateway.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
  restApi.root.addResource('v1').addMethod('GET', new apigateway.MockIntegration());
  const client = new cognito.UserPool(stack, 'Pool').addClient('Handhelds');
  new WebApp(stack, 'WebApp', {
    restApi,
    userPoolClientId: client.userPoolClientId,
    settings: appSettings(
      loadConfig({
        SERVICE_PREFIX: 'wms',
        GS1_COMPANY_PREFIX: '4012345',
        BOX_NO_PATTERN: '^BX[0-9]{6}$',
        ENFORCE_ERP_PLAN: 'false',
      }),
    ),
    logRetentionDays: 30,
  });
  return { app, template: Template.fromStack(stack) };
};

describe('the handheld app on AWS', () => {
  let template: Template;
  let app: App;
  beforeAll(() => {
    ({ app, template } = synthesize());
  });

  it('serves the app from a private bucket through origin access control, HTTPS only', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'site/' }),
    });
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'https-only' }),
        Origins: Match.arrayWith([
          Match.objectLike({ S3OriginConfig: Match.anyValue(), OriginAccessControlId: Match.anyValue() }),
        ]),
      }),
    });
  });

  it('lets only this distribution read the bucket, and only over TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Action: 's3:GetObject',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('forwards /v1/* to the API stage uncached with every method, so app and API share one origin', () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0] as {
      Properties: { DistributionConfig: Record<string, any> };
    };
    const config = distribution.Properties.DistributionConfig;
    const api = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/v1/*');
    expect(api).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
    });
    const apiOrigin = config.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    expect(apiOrigin).toMatchObject({ CustomOriginConfig: { OriginProtocolPolicy: 'https-only' } });
    // The stage's path: /v1/x on the app's origin is /prod/v1/x on the API.
    expect(JSON.stringify(apiOrigin.OriginPath)).toContain('prod');
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        DefaultTTL: 0,
        MinTTL: 0,
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['Authorization'] },
        }),
      }),
    });
  });

  // CloudFront caches 4xx and 5xx answers for 10 s unless told otherwise, and honours an origin's
  // no-store only on 404, 410, 414 and 501: a 503 DATABASE_UNAVAILABLE retried after its
  // Retry-After would meet the same cached 503.
  it('keeps no error answer: error caching minimum TTL 0 for every code CloudFront caches, no error page', () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0] as {
      Properties: { DistributionConfig: Record<string, any> };
    };
    const responses = distribution.Properties.DistributionConfig.CustomErrorResponses as Record<string, unknown>[];
    expect(responses.map((r) => r.ErrorCode)).toEqual([400, 403, 404, 405, 414, 500, 501, 502, 503, 504]);
    for (const response of responses) {
      // A page or a status here would replace the API's unified error body on every behaviour.
      expect(response).toEqual({ ErrorCode: response.ErrorCode, ErrorCachingMinTTL: 0 });
    }
  });

  it('sends a strict Content-Security-Policy allowing only its origin and Cognito sign-in', () => {
    const policy = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0] as {
      Properties: Record<string, any>;
    };
    const headers = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    const csp = JSON.stringify(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('https://cognito-idp.eu-central-1.amazonaws.com');
    expect(csp).not.toContain('unsafe-inline');
    expect(headers).toMatchObject({
      FrameOptions: { FrameOption: 'DENY' },
      StrictTransportSecurity: { IncludeSubdomains: true },
      ContentTypeOptions: { Override: true },
    });
  });

  it('writes the runtime configuration (region, app client) at deploy time and invalidates the page', () => {
    const deployment = Object.values(template.findResources('Custom::CDKBucketDeployment'))[0] as {
      Properties: Record<string, any>;
    };
    expect(deployment.Properties.DistributionPaths).toEqual(
      expect.arrayContaining(['/', '/index.html', '/sw.js', '/config.json']),
    );
    // config.json is rendered at deploy time with the app client's id (a deploy-time value).
    const client = Object.keys(template.findResources('AWS::Cognito::UserPoolClient'))[0] as string;
    const markers = (deployment.Properties.SourceMarkers as Record<string, unknown>[]).flatMap((m) => Object.values(m));
    expect(markers).toContainEqual({ Ref: client });
  });

  it('empties the app bucket when the stack is deleted, so that the bucket can be deleted, and keeps the access logs', () => {
    const deployment = Object.values(template.findResources('Custom::CDKBucketDeployment'))[0] as {
      Properties: Record<string, unknown>;
    };
    // CloudFormation deletes no bucket that holds objects: the files go with the deployment first.
    expect(deployment.Properties.RetainOnDelete).toBe(false);
    const buckets = Object.values(template.findResources('AWS::S3::Bucket')) as {
      DeletionPolicy?: string;
      Properties: { LoggingConfiguration?: unknown };
    }[];
    const site = buckets.find((b) => b.Properties.LoggingConfiguration !== undefined);
    const logs = buckets.find((b) => b.Properties.LoggingConfiguration === undefined);
    expect(site?.DeletionPolicy).toBe('Delete');
    expect(logs?.DeletionPolicy).toBe('Retain');
  });

  it('tells the app the service prefix its location routes are under, and whether SSCCs are configured', () => {
    const { directory } = app.synth();
    const written = readdirSync(directory)
      .map((entry) => join(directory, entry, 'config.json'))
      .filter((file) => existsSync(file))
      .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
    expect(written).toEqual([
      expect.objectContaining({ region: 'eu-central-1', service_prefix: 'wms', sscc_enabled: true }),
    ]);
  });

  it("tells the app the functions' code patterns and ENFORCE_ERP_PLAN, in the shape npm start serves", () => {
    const { directory } = app.synth();
    const [written] = readdirSync(directory)
      .map((entry) => join(directory, entry, 'config.json'))
      .filter((file) => existsSync(file))
      .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
    expect(written).toMatchObject({
      box_no_pattern: '^BX[0-9]{6}$',
      zongpai_no_pattern: '^[A-Z0-9-]{4,32}$',
      location_code_pattern: '^[A-Z0-9-]{2,32}$',
      enforce_erp_plan: false,
    });
    // The same keys as the local runtime's, but for the local sign-in's endpoint.
    const { cognito_endpoint: _, ...local } = localRuntimeConfig();
    expect(Object.keys(written ?? {}).sort()).toEqual(Object.keys(local).sort());
  });

  it('leaves no cdk-nag AwsSolutions finding unacknowledged in the app hosting', () => {
    const findings = new AwsSolutionsChecks()
      .validateScope(app)
      .violations.flatMap((v) =>
        v.violatingResources
          .filter(
            (r) => (r.constructPath ?? '').includes('/WebApp/') || (r.constructPath ?? '').includes('BucketDeployment'),
          )
          .map((r) => `${v.ruleName}: ${r.constructPath}`),
      );
    expect(findings).toEqual([]);
  });
});
