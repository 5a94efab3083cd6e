import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { BoxInfoResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of GET /v1/box/info (functions/box-info.ts). */
export const documentation = documentRoute('BoxInfo', () => ({
  summary: 'The ERP plan of a box and what is boxed so far',
  description:
    "Every item of the box's plan, whole: a plan whose items come to more than one Data API answer carries (896 KB: about 2 500 items with names of 60 letters, 500 with names of 500 Chinese characters, 270 with names of 1 000) is 422 ERP_PLAN_INVALID naming its size, never a part of it.",
  response: { schema: BoxInfoResponse, description: 'The box' },
  errors: ['INVALID_BOX_NO', 'BOX_NOT_FOUND', 'ERP_PLAN_INVALID', ...DATABASE, ...ERP_VIEW],
}));
