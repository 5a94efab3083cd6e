import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { synthesize } from './stack-fixture.ts';

/**
 * cdk-nag 3 is a CDK policy-validation plugin: its findings are not annotations (so
 * `Annotations.fromStack(...).findError` would see none) but violations of the validation report,
 * and `cdk synth` fails on any unacknowledged one, error or warning.
 */
const findings = (context: Record<string, unknown>) => {
  const { app } = synthesize(context);
  return new AwsSolutionsChecks()
    .validateScope(app)
    .violations.map(
      (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
};

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in the default stack', () => {
    expect(findings({})).toEqual([]);
  });

  it('finds nothing unacknowledged with an existing cluster and user pool', () => {
    expect(
      findings({
        clusterArn: 'arn:aws:rds:eu-central-1:123456789012:cluster:erp',
        secretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:erp-cargo-AbC123',
        userPoolId: 'eu-central-1_AbCdEf123',
      }),
    ).toEqual([]);
  });

  it('lets a synthesis with the plugin registered, as in infra/app.ts, succeed', () => {
    const { app } = synthesize({});
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth({ force: true })).not.toThrow();
  });
});
