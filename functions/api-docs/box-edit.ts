import { BOX_CHANGE, BOX_ITEMS, documentRoute } from '../../lib/openapi/route-docs.ts';
import { BoxSaveResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of PATCH /v1/box/{box_no} (functions/box-edit.ts). */
export const documentation = documentRoute('BoxEdit', () => ({
  summary: 'Move a saved box to another zongpai and/or replace its items',
  description:
    'Needs the current `version` (body field or If-Match). A change that changes nothing answers the box as it is.',
  response: { schema: BoxSaveResponse, description: 'The box at its new version' },
  errors: [...BOX_CHANGE, 'INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...BOX_ITEMS],
}));
