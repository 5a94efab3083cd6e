import { ROLE_GROUPS } from '../contract/roles.ts';
import { errorCatalogue, type ErrorCode } from '../errors/catalogue.ts';
import { NORMALISED } from './fields.ts';

/** The parts of an OpenAPI 3.1 document the reference reads. */
type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
};
type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
type Response = { description: string; content?: Record<string, { schema: Schema }> };
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  'x-access': string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  /** A response of its own, or one of the document's shared responses. */
  responses: Record<string, Response | { $ref: string }>;
};
export interface OpenApiDocument {
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses?: Record<string, Response> };
}

/** Who may call a route of an `x-access` role: its groups, as the functions check them. */
const access = (role: string): string => {
  if (role === 'public') return 'anyone (no token)';
  const groups: readonly string[] | undefined = ROLE_GROUPS[role as keyof typeof ROLE_GROUPS];
  if (groups === undefined) throw new Error(`unknown x-access role '${role}'`);
  return groups.join(', ');
};
const SAFE = Number.MAX_SAFE_INTEGER;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** Hand-written parts: rules the schemas cannot carry. Kept here so the whole reference is one generated file. */
const IDEMPOTENCY = `## Retries: the Idempotency-Key

Every POST, PUT, PATCH and DELETE accepts an \`Idempotency-Key\` header (1-255 visible ASCII characters, e.g. a UUID).

- The same key from the same caller with the same body answers the first response again (status and body), and the
  write happens once, also when the two requests race.
- The same key with a different body (or on another route) is 422 \`IDEMPOTENCY_KEY_REUSED\`; nothing is written.
- "Same body" means the same JSON value: key order and whitespace do not matter; anything else does, the spelling of
  a scanned code included (\` box-1 \` and \`BOX-1\` are two bodies).
- A key is scoped to its caller: two users' identical keys are two requests. Keys expire after 24 hours
  (\`IDEMPOTENCY_TTL_HOURS\`).
- A refusal is kept under its key as well: correct the request and send it under a new key.
- After a 503 or 504 the write may or may not have happened: retry with the same key.
`;

const ERP_VIEW = `## The ERP view

The service only reads the ERP, from a view (default \`erp.v_box_info\`, configured by \`ERP_BOX_VIEW\`) with one row
per planned item of a box. \`GET /v1/box/info\`, \`GET /v1/box/{box_no}/history\` and every box write read it.

| column | type |
|---|---|
| box_no | text |
| order_no | text |
| customer_name | text, nullable |
| item_code | text |
| item_name | text, nullable |
| planned_quantity | integer |
| unit | text, nullable |
`;

/** A response, the shared response it refers to resolved. */
const resolved = (response: Response | { $ref: string }, components: OpenApiDocument['components']): Response => {
  if (!('$ref' in response)) return response;
  const shared = components.responses?.[response.$ref.split('/').pop() ?? ''];
  if (shared === undefined) throw new Error(`the document refers to a response it lacks: ${response.$ref}`);
  return shared;
};

const typeOf = (schema: Schema, components: OpenApiDocument['components']): string => {
  if (schema.$ref) return `[${schema.$ref.split('/').pop()}](#${schema.$ref.split('/').pop()?.toLowerCase()})`;
  if (schema.anyOf) return schema.anyOf.map((s) => typeOf(s, components)).join(' or ');
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  if (schema.enum) return schema.enum.map((v) => `\`${String(v)}\``).join(', ');
  return types
    .map((t) =>
      t === 'array' && schema.items
        ? `array of ${typeOf(schema.items, components)}`
        : t === 'string' && schema.format
          ? schema.format
          : t,
    )
    .join(' or ');
};

const rulesOf = (schema: Schema): string => {
  const rules: string[] = [];
  if (schema.pattern && schema.format === undefined) rules.push(`pattern \`${schema.pattern}\``);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    rules.push(`${schema.minLength ?? 0}-${schema.maxLength ?? '∞'} characters`);
  if (
    (schema.minimum !== undefined && schema.minimum > -SAFE) ||
    (schema.maximum !== undefined && schema.maximum < SAFE)
  )
    rules.push(
      `${schema.minimum ?? '…'} to ${schema.maximum !== undefined && schema.maximum < SAFE ? schema.maximum : '…'}`,
    );
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    rules.push(`${schema.minItems ?? 0}-${schema.maxItems ?? '∞'} entries`);
  if (schema.default !== undefined) rules.push(`default \`${JSON.stringify(schema.default)}\``);
  const description = schema.description?.replace(NORMALISED, '').trim();
  if (description) rules.push(description);
  return rules.join('; ');
};

/** One table row per field, nested objects and arrays of objects flattened (`items[].item_code`). */
const fieldRows = (schema: Schema, components: OpenApiDocument['components'], prefix = ''): string[] => {
  const object =
    schema.$ref && prefix !== ''
      ? undefined
      : schema.$ref
        ? components.schemas[schema.$ref.split('/').pop() ?? '']
        : schema;
  if (object?.anyOf) return object.anyOf.flatMap((s) => fieldRows(s, components, prefix));
  if (object?.properties === undefined) return [];
  return Object.entries(object.properties).flatMap(([name, field]) => {
    const path = `${prefix}${name}`;
    const row = `| \`${path}\` | ${cell(typeOf(field, components))} | ${object.required?.includes(name) ? 'yes' : 'no'} | ${cell(rulesOf(field))} |`;
    const inner =
      field.type === 'array' && field.items?.properties
        ? fieldRows(field.items, components, `${path}[].`)
        : field.properties
          ? fieldRows(field, components, `${path}.`)
          : [];
    return [row, ...inner];
  });
};

const fieldTable = (schema: Schema, components: OpenApiDocument['components']): string => {
  const rows = fieldRows(schema, components);
  return rows.length === 0
    ? 'An empty object, `{}`: no fields.'
    : ['| field | type | required | rules |', '|---|---|---|---|', ...rows].join('\n');
};

const operationSection = (
  method: string,
  path: string,
  op: Operation,
  components: OpenApiDocument['components'],
): string => {
  const [success, ...failures] = Object.entries(op.responses).map(
    ([status, response]) => [status, resolved(response, components)] as const,
  );
  const parts = [
    `### ${method.toUpperCase()} ${path}`,
    '',
    `${op.summary}.${op.description ? ` ${op.description.replace(/(?:\n\n)?Access: .*$/s, '')}`.trimEnd() : ''}`,
    '',
    `Access: ${access(op['x-access'])}. Operation id: \`${op.operationId}\`.`,
  ];
  if (op.parameters?.length) {
    parts.push('', '| parameter | in | type | required | rules |', '|---|---|---|---|---|');
    for (const p of op.parameters)
      parts.push(
        `| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema, components))} | ${p.required ? 'yes' : 'no'} | ${cell(rulesOf(p.schema))} |`,
      );
  }
  const body = op.requestBody?.content['application/json']?.schema;
  const optional = op.requestBody?.required ? '' : ', optional';
  if (body?.anyOf) {
    for (const alternative of body.anyOf)
      parts.push(
        '',
        `Request body (JSON${optional}), either [${alternative.$ref?.split('/').pop()}](#${alternative.$ref?.split('/').pop()?.toLowerCase()}):`,
        '',
        fieldTable(alternative, components),
      );
  } else if (body) parts.push('', `Request body (JSON${optional}):`, '', fieldTable(body, components));
  if (success) {
    const schema = success[1].content?.['application/json']?.schema;
    parts.push(
      '',
      `Answer: **${success[0]}** ${success[1].description}${schema?.$ref ? `, [${schema.$ref.split('/').pop()}](#${schema.$ref.split('/').pop()?.toLowerCase()})` : ''}.`,
    );
  }
  parts.push(
    '',
    '| status | error_code |',
    '|---|---|',
    ...failures.map(([status, r]) => `| ${status} | ${cell(r.description)} |`),
  );
  return parts.join('\n');
};

/**
 * The API reference (docs/API.md), rendered from the OpenAPI document so that it is always
 * the contract the service serves; `npm run docs` writes it and a test keeps it current.
 *
 * @example
 * ```ts
 * apiReference(buildOpenApiDocument(config) as OpenApiDocument).startsWith('# API reference'); // true
 * ```
 */
export const apiReference = (doc: OpenApiDocument): string => {
  const { components } = doc;
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method, path, op })),
  );
  return [
    '# API reference',
    '',
    '<!-- Generated from the OpenAPI document (lib/openapi/) by `npm run docs`; a test fails when it is stale. Do not edit by hand. -->',
    '',
    'The contract of the service: every route, who may call it, what it takes and answers, and every error code it can',
    'give. The same description is served as OpenAPI 3.1 at `GET /v1/openapi.json`; client types generated from it are',
    'written to `generated/api-types.ts` at `npm install` and by `npm run types` (openapi-typescript, for openapi-fetch).',
    '',
    '## Conventions',
    '',
    `- Servers: ${(doc.servers ?? []).map((s) => `\`${s.url}\` (${s.description ?? ''})`).join('; ')}. Paths below include \`/v1\`.`,
    '- Every route except `GET /v1/openapi.json` needs a Cognito ID token: `Authorization: Bearer <token>`. Groups:',
    '  `operator` may scan, save and query; `supervisor` may also edit and undo boxes, close and reopen zongpais, void',
    "  scans and read the change feed; `integration` (an ERP's technical user) may only read: box info, zongpais,",
    '  orders, locations and the change feed.',
    '- JSON in and out, field names in snake_case; send bodies as `Content-Type: application/json`, at most 256 KiB.',
    '  A number is the JSON value it writes: `5.0` and `5e0` are the integer 5, while one JavaScript would round to an',
    "  integer it is not (`5.0000000000000001`, `1e-400`) is refused with the field's error, never rounded. A query",
    '  parameter given more than once is refused (400 VALIDATION_ERROR): which one was meant is not guessed; one the',
    '  route does not take is not read, nor is a body sent with a GET.',
    `- Codes (box, zongpai, location numbers) are normalised before they are checked: ${NORMALISED}`,
    '- Messages are English, or Simplified Chinese when `Accept-Language` prefers `zh` (errors API Gateway answers by',
    '  itself are always English); clients translate by `error_code`.',
    '- Every error has the body [ErrorBody](#errorbody). 429 and 503 carry `Retry-After` (seconds). 502 and 504 are',
    '  API Gateway answering for a function that failed or ran past 29 seconds.',
    '',
    IDEMPOTENCY,
    '## Routes',
    '',
    '| method | path | access | answer | summary |',
    '|---|---|---|---|---|',
    ...operations.map(
      ({ method, path, op }) =>
        `| ${method.toUpperCase()} | \`${path}\` | ${access(op['x-access'])} | ${Object.keys(op.responses)[0]} | ${cell(op.summary)} |`,
    ),
    '',
    ...operations.flatMap(({ method, path, op }) => [operationSection(method, path, op, components), '']),
    '## Schemas',
    '',
    ...Object.keys(components.schemas).flatMap((name) => [
      `### ${name}`,
      '',
      fieldTable({ $ref: `#/components/schemas/${name}` }, components),
      '',
    ]),
    '## Error codes',
    '',
    '| error_code | status | domain |',
    '|---|---|---|',
    ...(Object.keys(errorCatalogue) as ErrorCode[]).map(
      (code) => `| \`${code}\` | ${errorCatalogue[code].status} | ${errorCatalogue[code].domain} |`,
    ),
    '',
    ERP_VIEW,
  ].join('\n');
};
