import { BOX_CHANGE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { BoxSaveResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of DELETE /v1/box/{box_no} (functions/box-undo.ts). */
export const documentation = documentRoute('BoxUndo', () => ({
  summary: 'Undo a boxing: the box is empty again and leaves its zongpai',
  description: 'Needs the current `version` (body field or If-Match); the zongpai it leaves must be open.',
  response: { schema: BoxSaveResponse, description: 'The box, NOT_BOXED, at its new version' },
  errors: BOX_CHANGE,
}));
