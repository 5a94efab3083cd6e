import { describe, expect, it } from 'vitest';
import { environmentName, readSettings, SettingsError } from '../../infra/settings.ts';

const fromContext = (context: Record<string, unknown>, env: Record<string, string> = {}) =>
  readSettings((key) => context[key], env);

describe('readSettings', () => {
  it('defaults to a new cluster and user pool, stage prod, scaling to zero, protected', () => {
    expect(fromContext({})).toEqual({
      stackName: 'CargoBoxingService',
      stage: 'prod',
      servicePrefix: 'cargo',
      erpBoxView: 'erp.v_box_info',
      databaseName: 'cargo',
      minCapacity: 0,
      maxCapacity: 4,
      autoPauseMinutes: 30,
      deletionProtection: true,
      apiGatewayCloudWatchRole: false,
      backupRetentionDays: 7,
      throttlingRateLimit: 50,
      throttlingBurstLimit: 100,
      logRetentionDays: 90,
      logLevel: 'INFO',
      functionEnvironment: {},
    });
  });

  it('names each environment variable CARGO_ plus the context key in upper snake case', () => {
    expect(environmentName('throttlingRateLimit')).toBe('CARGO_THROTTLING_RATE_LIMIT');
    expect(environmentName('clusterArn')).toBe('CARGO_CLUSTER_ARN');
  });

  it('prefers CDK context over the environment variable', () => {
    expect(fromContext({ stage: 'live' }, { CARGO_STAGE: 'test' }).stage).toBe('live');
    expect(
      fromContext({}, { CARGO_STAGE: 'test', CARGO_MIN_CAPACITY: '0.5', CARGO_DELETION_PROTECTION: 'false' }),
    ).toMatchObject({
      stage: 'test',
      minCapacity: 0.5,
      deletionProtection: false,
    });
  });

  it('accepts an existing cluster and secret given together', () => {
    const existingDatabase = {
      clusterArn: 'arn:aws:rds:eu-central-1:123456789012:cluster:erp',
      secretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:erp-cargo-AbC123',
    };
    expect(fromContext(existingDatabase).existingDatabase).toEqual(existingDatabase);
  });

  it('rejects a cluster without its secret', () => {
    expect(() => fromContext({ clusterArn: 'arn:aws:rds:eu-central-1:123456789012:cluster:erp' })).toThrow(
      /clusterArn.*go together/,
    );
  });

  it('rejects a secret ARN without the 6-character suffix IAM needs', () => {
    expect(() =>
      fromContext({
        clusterArn: 'arn:aws:rds:eu-central-1:123456789012:cluster:erp',
        secretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:erp',
      }),
    ).toThrow(/secretArn \(CARGO_SECRET_ARN\)/);
  });

  it('rejects a minimum capacity above the maximum, and capacities off the 0.5 ACU grid', () => {
    expect(() => fromContext({ minCapacity: 8, maxCapacity: 4 })).toThrow(/minCapacity.*maxCapacity/);
    expect(() => fromContext({ maxCapacity: '2.3' })).toThrow(/maxCapacity.*0\.5/);
  });

  it('rejects a log retention CloudWatch does not offer', () => {
    expect(() => fromContext({ logRetentionDays: 10 })).toThrow(SettingsError);
  });

  it('names every bad setting at once', () => {
    expect(() => fromContext({ stage: 'no spaces', throttlingBurstLimit: 'many' })).toThrow(
      /stage .*throttlingBurstLimit/,
    );
  });

  it("validates the function environment with the functions' own configuration rules", () => {
    expect(
      fromContext({ functionEnvironment: { QUANTITY_MAX: 500, ENFORCE_ERP_PLAN: false } }).functionEnvironment,
    ).toEqual({ QUANTITY_MAX: '500', ENFORCE_ERP_PLAN: 'false' });
    expect(() => fromContext({ functionEnvironment: { BOX_NO_PATTERN: '([' } })).toThrow(/BOX_NO_PATTERN/);
    expect(() => fromContext({ servicePrefix: 'Cargo Service' })).toThrow(/SERVICE_PREFIX/);
  });

  it('keeps the variables the stack sets out of functionEnvironment', () => {
    expect(() => fromContext({ functionEnvironment: { DB_CLUSTER_ARN: 'x' } })).toThrow(/functionEnvironment/);
    expect(() => fromContext({ functionEnvironment: '{not json' })).toThrow(/functionEnvironment.*JSON/);
  });
});
