import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { ZongpaiResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of POST /v1/zongpai/{zongpai_no}/reopen (functions/zongpai-reopen.ts). */
export const documentation = documentRoute('ZongpaiReopen', () => ({
  summary: 'Reopen a closed zongpai to correct a mistake',
  description:
    'Supervisors only; the reopening is kept with the close it undid. Reopening an open zongpai answers it as it is and changes nothing.',
  response: { schema: ZongpaiResponse, description: 'The zongpai, OPEN' },
  errors: ['INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...DATABASE],
}));
