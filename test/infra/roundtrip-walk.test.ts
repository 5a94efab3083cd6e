import { describe, expect, it } from 'vitest';
import { roundTripWalk, type RoundTripStep } from '../../bench/roundtrips/scenarios.ts';
import { loadRoutes, type RouteDefinition } from '../../infra/routes.ts';

const { routeTable } = await loadRoutes();

/**
 * The round-trip benchmark (bench/roundtrips) walks every declared route and only declared
 * routes, each step sent where it says it goes: checked from the walk itself, without running it.
 */
const PREFIX = 'cargo';

/** The declared route API Gateway serves a request with: literal path segments win over parameters. */
const servedBy = (routes: readonly RouteDefinition[], method: string, url: string): string | undefined => {
  const segments = (url.split('?')[0] ?? '').split('/');
  const matches = routes
    .filter((r) => r.method === method)
    .map((r) => ({ id: r.id, template: r.path.split('/') }))
    .filter(
      ({ template }) =>
        template.length === segments.length && template.every((t, i) => /^\{\w+\}$/.test(t) || t === segments[i]),
    );
  const literals = (template: string[]) => template.filter((t) => !t.startsWith('{')).length;
  return matches.sort((a, b) => literals(b.template) - literals(a.template))[0]?.id;
};

/** What the walk leaves out, what it names that is not declared, and steps sent to another route than they name. */
const walkCoverage = (walk: readonly RoundTripStep[], routes: readonly RouteDefinition[]) => {
  const declared = new Set(routes.map((r) => r.id));
  const walked = new Set(walk.map((s) => s.route));
  const misdirected = walk.flatMap((step) => {
    // A step made from the answer before it is built from an empty one: its method and path shape are what count.
    const request =
      typeof step.request === 'function' ? step.request({ status: 200, body: {} } as never) : step.request;
    const served = servedBy(routes, request.method, request.path);
    return served === step.route || !declared.has(step.route)
      ? []
      : [`${step.route} (${step.case}): ${request.method} ${request.path} is served by ${served ?? 'no route'}`];
  });
  return {
    unwalked: [...declared].filter((id) => !walked.has(id)).sort(),
    undeclared: [...walked].filter((id) => !declared.has(id)).sort(),
    misdirected,
  };
};

describe('the round-trip benchmark walk (bench/roundtrips/scenarios.ts)', () => {
  const routes = routeTable(PREFIX);
  const walk = roundTripWalk(PREFIX);

  it('walks every declared route, names no undeclared one, and sends each step to the route it names', () => {
    expect(walkCoverage(walk, routes)).toEqual({ unwalked: [], undeclared: [], misdirected: [] });
  });

  it('notices a declared route the walk leaves out', () => {
    const archive: RouteDefinition = {
      id: 'ZongpaiArchive',
      method: 'POST',
      path: '/v1/zongpai/{zongpai_no}/archive',
      entry: 'functions/zongpai-archive.ts',
      access: 'supervisor',
    };
    expect(walkCoverage(walk, [...routes, archive]).unwalked).toEqual(['ZongpaiArchive']);
  });

  it('notices a walk step naming a route that is not declared, or sent to another route than it names', () => {
    const stray: RoundTripStep[] = [
      {
        route: 'ZongpaiArchive',
        case: 'archive',
        key: 'no key',
        request: { method: 'POST', path: '/v1/zongpai/RT-PLT-1/archive', as: 'supervisor' },
        status: 200,
      },
      {
        route: 'ZongpaiGet',
        case: 'mislabelled',
        key: 'no key',
        request: { method: 'GET', path: '/v1/zongpai/RT-PLT-1/packing-list' },
        status: 200,
      },
    ];
    const found = walkCoverage([...walk, ...stray], routes);
    expect(found.undeclared).toEqual(['ZongpaiArchive']);
    expect(found.misdirected).toEqual([
      'ZongpaiGet (mislabelled): GET /v1/zongpai/RT-PLT-1/packing-list is served by ZongpaiPackingList',
    ]);
  });
});
