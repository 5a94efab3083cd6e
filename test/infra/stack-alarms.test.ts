import { describe, expect, it } from 'vitest';
import { resourcesOf, synthesize } from './stack-fixture.ts';

/**
 * One stack per environment (docs/DEPLOYMENT.md: `stackName`): each stack's alarms must watch that stack's
 * own resources, or one environment's errors would ring another's alarm.
 */
const stacks = [synthesize({ stackName: 'CargoProd' }), synthesize({ stackName: 'CargoTest', stage: 'test' })];

/** The dimensions of every alarm of a template, by alarm logical id. */
const dimensionsOf = (template: (typeof stacks)[number]['template']) =>
  Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).map((alarm) => ({
    namespace: alarm.Properties.Namespace as string,
    metric: alarm.Properties.MetricName as string,
    dimensions: (alarm.Properties.Dimensions ?? []) as { Name: string; Value: unknown }[],
  }));

describe('alarms per stack', () => {
  it("watches the 5xx answers of the stack's own REST API: the alarm's ApiName is that API's name, which is the stack's", () => {
    for (const { template, settings } of stacks) {
      const [api] = Object.values(resourcesOf(template, 'AWS::ApiGateway::RestApi'));
      expect(api?.Properties.Name).toBe(settings.stackName);
      const errors = dimensionsOf(template).filter((a) => a.namespace === 'AWS/ApiGateway');
      expect(errors).toEqual([
        {
          namespace: 'AWS/ApiGateway',
          metric: '5XXError',
          dimensions: [{ Name: 'ApiName', Value: settings.stackName }],
        },
      ]);
    }
  });

  it('gives two stacks of different names no alarm with the same literal dimensions or custom namespace', () => {
    const literal = (template: (typeof stacks)[number]['template']) =>
      new Set(
        dimensionsOf(template)
          // A Ref names a resource of the stack itself; only literal values could be shared.
          .filter((a) => a.dimensions.every((d) => typeof d.Value === 'string'))
          .map((a) => JSON.stringify(a)),
      );
    const [prod, test] = stacks.map((s) => literal(s.template));
    expect([...prod!].filter((alarm) => test!.has(alarm))).toEqual([]);
  });
});
