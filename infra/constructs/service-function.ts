import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROUTE_TIMEOUT_SECONDS } from '../routes.ts';
import { CALL_GRACE_MS } from '../../lib/db/retry.ts';

const ROUTE_TIMEOUT = Duration.seconds(ROUTE_TIMEOUT_SECONDS);

/** Time left after the retry budget for the last Data API call and the response. */
const LAST_ATTEMPT_HEADROOM = Duration.seconds(8);

/**
 * How every function is bundled: by the local esbuild (never Docker), as minified ESM for
 * Node 24 with source maps, and with the AWS SDK inside the bundle so that the
 * `@aws-sdk/client-rds-data` version is the one in package-lock.json, not whatever the runtime ships.
 */
export const BUNDLING: BundlingOptions = {
  forceDockerBundling: false,
  format: OutputFormat.ESM,
  // Bundled CommonJS dependencies still call require() for Node built-ins; ESM has none.
  banner:
    "import { createRequire as __cargoCreateRequire } from 'node:module'; const require = __cargoCreateRequire(import.meta.url);",
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  // Stack traces only need the mappings; shipping the sources would double the package.
  sourcesContent: false,
  bundleAwsSDK: true,
  // The error catalogue's Chinese messages stay readable (and shorter) as UTF-8. Passed as a raw
  // esbuild argument: the `charset` bundling option does not reach esbuild in this aws-cdk-lib.
  // No legal-comment block at the end: what esbuild collects there from the dependencies is their
  // `@preserve` coverage hints, not licence texts. The floor reference is built the same way.
  esbuildArgs: { '--charset': 'utf8', '--legal-comments': 'none' },
  // Route documentation is not in a function: it lives in functions/api-docs/, which only the
  // assembly of the OpenAPI document imports (infra/routes.ts); the OpenAPI function serves the
  // document rendered at synth time.
  // `import.meta.bundled`: checks of statements fixed in the source, which the tests run over every
  // statement (e.g. the idempotency gate of compileWrite), are left out of the deployed code.
  define: { 'import.meta.bundled': 'true' },
  logLevel: LogLevel.WARNING,
};

/**
 * The SDK's default credential chain, and what a function bundles in its place: its role's
 * credentials from the environment, where Lambda puts them (see infra/lambda/env-credentials.ts).
 * The benchmark's reference functions keep the whole chain, as the SDK ships it.
 */
const CREDENTIAL_CHAIN = '@aws-sdk/credential-provider-node';
const LAMBDA_CREDENTIALS = 'infra/lambda/env-credentials.ts';

/** esbuild's `alias` of a function's bundling: the SDK's default credential chain → the environment's credentials. */
export const environmentCredentials = (projectRoot: string): Record<string, string> => ({
  [CREDENTIAL_CHAIN]: path.join(projectRoot, LAMBDA_CREDENTIALS),
});

export interface ServiceFunctionProps {
  /** Handler module relative to `projectRoot`; it exports `handler`. */
  readonly entry: string;
  /** Repository root: where package-lock.json and tsconfig.json are. */
  readonly projectRoot: string;
  readonly description: string;
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetentionDays: number;
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** @default {@link ROUTE_TIMEOUT} */
  readonly timeout?: Duration;
  /** How long the Data API adapter retries a resuming cluster (`DB_RETRY_BUDGET_MS`). @default timeout minus 8 s */
  readonly retryBudget?: Duration;
  /**
   * `false` replaces the esbuild bundle by a placeholder, for template tests that must not
   * depend on every handler file existing or on bundling time. @default true
   */
  readonly bundle?: boolean;
  /** Files written beside the bundle (name → content), read by the function at run time. */
  readonly files?: Readonly<Record<string, string>>;
  /**
   * Where the function's AWS clients find credentials: its role's, in the environment where Lambda
   * puts them, or the SDK's whole default chain as shipped (the benchmark's reference functions).
   * @default 'environment'
   */
  readonly credentials?: 'environment' | 'sdk-default-chain';
}

/** esbuild's bundling, then a copy of each of `files` into the bundle's folder. */
const withFiles = (files: Readonly<Record<string, string>> | undefined): Pick<BundlingOptions, 'commandHooks'> => {
  if (files === undefined) return {};
  const staged = mkdtempSync(path.join(tmpdir(), 'cargo-function-files-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(staged, path.basename(name)), content);
  return {
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_input, output) =>
        Object.keys(files).map(
          (name) => `cp "${path.join(staged, path.basename(name))}" "${path.join(output, path.basename(name))}"`,
        ),
    },
  };
};

/**
 * One Lambda function of the service, with the defaults every function shares: Node.js 24 on
 * arm64, 1 GiB, X-Ray, JSON logs into its own log group with a retention, and a role that may
 * write only to that log group (no AWSLambdaBasicExecutionRole). Grant data access separately.
 *
 * @example
 * ```ts
 * const fn = new ServiceFunction(this, 'BoxSave', {
 *   entry: 'functions/box-save.ts', projectRoot, description: 'POST /v1/box',
 *   environment, logRetentionDays: 90, logLevel: 'INFO',
 * });
 * database.connect(fn.function, 'BoxSave');
 * ```
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const timeout = props.timeout ?? ROUTE_TIMEOUT;
    const retryBudget = props.retryBudget ?? timeout.minus(LAST_ATTEMPT_HEADROOM);
    // A call is abandoned CALL_GRACE_MS after the retry budget (lib/db/retry.ts): before the timeout.
    if (retryBudget.toMilliseconds() + CALL_GRACE_MS >= timeout.toMilliseconds())
      throw new Error(`${id}: the retry budget must end more than ${CALL_GRACE_MS / 1000} s before the timeout`);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(role);

    const entry = path.join(props.projectRoot, props.entry);
    this.function = new NodejsFunction(this, 'Function', {
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 1024,
      timeout,
      tracing: lambda.Tracing.ACTIVE,
      role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel[props.logLevel],
      environment: {
        ...props.environment,
        DB_RETRY_BUDGET_MS: String(retryBudget.toMilliseconds()),
        POWERTOOLS_LOG_LEVEL: props.logLevel,
        NODE_OPTIONS: '--enable-source-maps',
      },
      ...(props.bundle === false
        ? { code: lambda.Code.fromInline(`// ${props.entry}: bundling skipped`), handler: 'index.handler' }
        : {
            entry,
            handler: 'handler',
            projectRoot: props.projectRoot,
            depsLockFilePath: path.join(props.projectRoot, 'package-lock.json'),
            bundling: {
              ...BUNDLING,
              esbuildArgs: {
                ...BUNDLING.esbuildArgs,
                ...(props.credentials === 'sdk-default-chain'
                  ? {}
                  : { [`--alias:${CREDENTIAL_CHAIN}`]: path.join(props.projectRoot, LAMBDA_CREDENTIALS) }),
              },
              tsconfig: path.join(props.projectRoot, 'tsconfig.json'),
              ...withFiles(props.files),
            },
          }),
    });

    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions; every other statement names its resource.',
    });
  }
}
