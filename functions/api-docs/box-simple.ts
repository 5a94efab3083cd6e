import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { BoxSaveResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of POST /v1/box/simple (functions/box-simple.ts). */
export const documentation = documentRoute('BoxSimpleSave', () => ({
  summary: 'Simplified boxing: the box holds exactly its ERP plan',
  response: { schema: BoxSaveResponse, description: 'The saved box' },
  errors: [
    'INVALID_BOX_NO',
    'INVALID_ZONGPAI',
    'BOX_NOT_FOUND',
    'ZONGPAI_NOT_FOUND',
    'BOX_ALREADY_BOXED',
    'ZONGPAI_CLOSED',
    'ERP_PLAN_INVALID',
    ...DATABASE,
    ...ERP_VIEW,
  ],
}));
