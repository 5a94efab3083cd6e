import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { LIMIT_DOC } from '../../lib/openapi/fields.ts';
import { ZongpaiListResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of GET /v1/zongpai (functions/zongpai-list.ts). */
export const documentation = documentRoute('ZongpaiList', () => ({
  summary: 'Zongpais, newest first, optionally only OPEN or CLOSED',
  description: 'A page at a time: pass `next_cursor` as `cursor` for the next page (with the same `status`).',
  query: { limit: LIMIT_DOC },
  response: { schema: ZongpaiListResponse, description: 'One page of zongpais' },
  errors: ['VALIDATION_ERROR', ...DATABASE],
}));
