import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { ZongpaiResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of POST /v1/zongpai/{zongpai_no}/close (functions/zongpai-close.ts). */
export const documentation = documentRoute('ZongpaiClose', () => ({
  summary: 'Close a zongpai: no more boxes in or out',
  description: 'Closing an empty zongpai is allowed. Closing a closed one answers it as it is and changes nothing.',
  response: { schema: ZongpaiResponse, description: 'The closed zongpai' },
  errors: ['INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...DATABASE],
}));
