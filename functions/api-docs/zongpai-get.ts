import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { ZongpaiResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of GET /v1/zongpai/{zongpai_no} (functions/zongpai-get.ts). */
export const documentation = documentRoute('ZongpaiGet', () => ({
  summary: 'A zongpai with its boxes and totals',
  response: { schema: ZongpaiResponse, description: 'The zongpai' },
  errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE],
}));
