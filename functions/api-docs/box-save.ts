import { BOX_ITEMS, DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { BoxSaveResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of POST /v1/box (functions/box-save.ts). */
export const documentation = documentRoute('BoxSave', () => ({
  summary: 'Save what was boxed and append the box to its zongpai',
  description:
    "The zongpai must be registered and open; by default every item must be in the box's ERP plan, at most its planned quantity. A box already BOXED is changed with PATCH. The items may come to at most 57 344 bytes as the box's record (its answer, history and event are each one Data API row): more, e.g. 500 item codes of 64 Chinese characters, is 400 VALIDATION_ERROR on `items`.",
  response: { schema: BoxSaveResponse, description: 'The saved box' },
  errors: [
    'INVALID_BOX_NO',
    'INVALID_ZONGPAI',
    ...BOX_ITEMS,
    'BOX_NOT_FOUND',
    'ZONGPAI_NOT_FOUND',
    'BOX_ALREADY_BOXED',
    'ZONGPAI_CLOSED',
    ...DATABASE,
    ...ERP_VIEW,
  ],
}));
