import { loadRoutes } from '../../infra/routes.ts';
import { SVG_MEDIA_TYPE } from '../../lib/label/svg.ts';
import { ZPL_MEDIA_TYPE } from '../../lib/label/zpl.ts';
import { requestGenerator, type FuzzRequest, type FuzzTokens } from './generate.ts';

const { routeTable } = await loadRoutes();

/** What a fuzz run found. */
export interface FuzzReport {
  readonly requests: number;
  readonly seconds: number;
  /** Answers by HTTP status; `network` for a request that got no answer. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly serverErrors: number;
  /** Answers outside the unified format: an error without its four fields, a 2xx that is not JSON. */
  readonly nonUnified: number;
  /** Each kind of finding (route, input, what was wrong), how often, and one request that showed it. */
  readonly findings: readonly Finding[];
}

export interface Finding {
  readonly kind: string;
  readonly count: number;
  readonly example: string;
}

export interface FuzzOptions {
  readonly baseUrl: string;
  readonly requests: number;
  readonly concurrency: number;
  readonly seed: number;
  /** Signs a token the service under test accepts, as `npm run token` does with its data folder's key. */
  readonly sign: (user: string, groups: string[]) => Promise<string>;
  readonly servicePrefix: string;
}

const UNIFIED_FIELDS = ['error_code', 'message', 'domain', 'request_id'] as const;

/** What a label route (`…/label`) answers besides errors: ZPL or SVG text. */
const LABEL_TYPES: readonly string[] = [ZPL_MEDIA_TYPE, SVG_MEDIA_TYPE];

/** Why an answer is outside the unified format, or undefined when it is within it; a label route's 2xx is its label. */
export const formatProblem = (status: number, contentType: string, text: string, label = false): string | undefined => {
  const json = /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);
  if (status >= 200 && status < 300) {
    if (text === '' && status === 204) return undefined;
    if (label) return LABEL_TYPES.includes(contentType) && text !== '' ? undefined : `label of type '${contentType}'`;
    if (!json) return `2xx of type '${contentType}'`;
    try {
      JSON.parse(text);
      return undefined;
    } catch {
      return '2xx not JSON';
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `error body not JSON (${contentType || 'no type'})`;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'error body not an object';
  const missing = UNIFIED_FIELDS.filter((f) => typeof (body as Record<string, unknown>)[f] !== 'string');
  return missing.length === 0 ? undefined : `error body without ${missing.join(', ')}`;
};

const excerpt = (request: FuzzRequest, status: number | string, text: string): string => {
  const body = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : '<bytes>';
  return `${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 200)} body ${body.slice(0, 200)} → ${String(status)} ${text.slice(0, 300)}`;
};

/** Tokens of each role's group, and of a user in no group. */
const fuzzTokens = async (sign: FuzzOptions['sign']): Promise<FuzzTokens> => {
  return {
    operator: await sign('fuzz-operator', ['operator']),
    supervisor: await sign('fuzz-supervisor', ['supervisor']),
    integration: await sign('fuzz-erp', ['integration']),
    nogroup: await sign('fuzz-nobody', []),
  };
};

/**
 * Sends `requests` generated requests to a running service, `concurrency` at a time, and
 * counts the answers: statuses, 5xx, and bodies outside the unified format.
 *
 * @example
 * ```ts
 * const report = await runFuzz({ baseUrl: 'http://127.0.0.1:3000', requests: 1000, concurrency: 16, seed: 1, sign, servicePrefix: 'cargo' });
 * report.serverErrors; // 0
 * ```
 */
export const runFuzz = async (options: FuzzOptions): Promise<FuzzReport> => {
  const next = requestGenerator(routeTable(options.servicePrefix), await fuzzTokens(options.sign), options.seed);
  const statuses: Record<string, number> = {};
  const findings = new Map<string, { count: number; example: string }>();
  let serverErrors = 0;
  let nonUnified = 0;
  const note = (kind: string, example: string) => {
    const found = findings.get(kind);
    if (found === undefined) findings.set(kind, { count: 1, example });
    else found.count++;
  };
  let sent = 0;
  const started = performance.now();
  const worker = async () => {
    while (sent < options.requests) {
      sent++;
      const request = next();
      try {
        const res = await fetch(`${options.baseUrl}${request.path}`, {
          method: request.method,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
          signal: AbortSignal.timeout(60_000),
        });
        const text = await res.text();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500) {
          serverErrors++;
          note(`${String(res.status)} ${request.route} (${request.input})`, excerpt(request, res.status, text));
        }
        const label = request.route.endsWith('/label');
        const problem = formatProblem(res.status, res.headers.get('content-type') ?? '', text, label);
        if (problem !== undefined) {
          nonUnified++;
          note(`${problem}: ${request.route} (${request.input})`, excerpt(request, res.status, text));
        }
      } catch (error) {
        statuses.network = (statuses.network ?? 0) + 1;
        note(`no answer: ${request.route} (${request.input})`, excerpt(request, 'network', String(error)));
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    requests: options.requests,
    seconds: (performance.now() - started) / 1000,
    statuses,
    serverErrors,
    nonUnified,
    findings: [...findings].map(([kind, f]) => ({ kind, ...f })).sort((a, b) => b.count - a.count),
  };
};
