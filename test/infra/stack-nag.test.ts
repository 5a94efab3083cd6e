import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { synthesize } from './stack-fixture.ts';

/**
 * Every setting of the settings table of docs/DEPLOYMENT.md that changes which resources the stack has, each
 * synthesized once: cdk-nag must find nothing unacknowledged (as `cdk synth` demands), and
 * cfn-lint no error in its template.
 *
 * cdk-nag 3 is a CDK policy-validation plugin: its findings are not annotations (so
 * `Annotations.fromStack(...).findError` would see none) but violations of the validation report,
 * and `cdk synth` fails on any unacknowledged one, error or warning.
 */
const DOCUMENTED_VARIANTS: Record<string, Record<string, unknown>> = {
  'the defaults (new cluster, user pool and bus)': {},
  'an existing cluster, user pool and bus': {
    clusterArn: 'arn:aws:rds:eu-central-1:123456789012:cluster:erp',
    secretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:erp-cargo-AbC123',
    databaseName: 'erp',
    erpBoxView: 'erp.v_box_plan',
    userPoolId: 'eu-central-1_AbCdEf123',
    eventBusName: 'erp-events',
  },
  "the region's API Gateway CloudWatch role": { apiGatewayCloudWatchRole: 'true' },
  'an event archive kept 90 days': { eventArchiveDays: '90' },
  'an event archive kept forever': { eventArchiveDays: '0' },
  'the ERP webhook': {
    erpWebhookUrl: 'https://erp.example.com/cargo/events',
    erpWebhookSecretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:erp-webhook-AbC123',
    erpWebhookHeader: 'X-Api-Key',
  },
  'an alarm e-mail': { alarmEmail: 'ops@example.com' },
  'a custom stack name, stage and service prefix': { stackName: 'CargoTest', stage: 'test', servicePrefix: 'freight' },
};

const templates = mkdtempSync(join(tmpdir(), 'cargo-variants-'));
const written: string[] = [];
afterAll(() => rmSync(templates, { recursive: true, force: true }));

const findings = (app: ReturnType<typeof synthesize>['app']) =>
  new AwsSolutionsChecks()
    .validateScope(app)
    .violations.map(
      (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );

describe.each(Object.entries(DOCUMENTED_VARIANTS))('the stack with %s', (name, context) => {
  const { app, template } = synthesize(context);
  const file = join(templates, `${name.replace(/[^A-Za-z0-9]+/g, '-')}.template.json`);
  writeFileSync(file, JSON.stringify(template.toJSON(), null, 1));
  written.push(file);

  it('synthesizes with no cdk-nag AwsSolutions finding unacknowledged', () => {
    expect(findings(app)).toEqual([]);
  });
});

const execFileAsync = promisify(execFile);

/** cfn-lint is a Python tool (`pip install cfn-lint`); CI may lack it, so the check says when it is skipped. */
const cfnLint = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' }).status === 0;
if (!cfnLint)
  console.warn('stack-nag: SKIPPED cfn-lint of the variant templates: no cfn-lint on PATH (pip install cfn-lint)');

/**
 * cfn-lint over some templates: its report's lines (empty when it finds nothing). Its exit code is a
 * bit set of what it found (2 errors, 4 warnings, 8 informational); any other failure is thrown.
 */
const lint = async (files: readonly string[]): Promise<string> => {
  try {
    await execFileAsync('cfn-lint', ['--format', 'parseable', '--', ...files], { encoding: 'utf8' });
    return '';
  } catch (error) {
    const { code, stdout } = error as { code?: unknown; stdout?: string };
    if (typeof code !== 'number' || (code & ~0b1110) !== 0) throw error;
    return stdout ?? '';
  }
};

describe.runIf(cfnLint)('cfn-lint', () => {
  it('finds no error in any variant template', { timeout: 180_000 }, async () => {
    expect(written).toHaveLength(Object.keys(DOCUMENTED_VARIANTS).length);
    // Each template takes cfn-lint seconds: two processes, half the templates each.
    const halves = [0, 1].map((half) => written.filter((_, i) => i % 2 === half));
    const output = (await Promise.all(halves.map(lint))).join('\n');
    // Errors only (`E…`): warnings and informational findings do not stop a deployment.
    expect(output.split('\n').filter((line) => /:E\d+:/.test(line))).toEqual([]);
  });
});

describe('the app', () => {
  it('lets a synthesis with the plugin registered, as in infra/app.ts, succeed', () => {
    const { app } = synthesize({});
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth({ force: true })).not.toThrow();
  });
});
