import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { ZongpaiResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of POST /v1/zongpai (functions/zongpai-register.ts). */
export const documentation = documentRoute('ZongpaiRegister', () => ({
  summary: 'Register a zongpai (a master tag such as a pallet)',
  description:
    'Names the zongpai (`zongpai_no`), or with `"sscc": true` and no `zongpai_no` registers the next SSCC: the extension digit (`SSCC_EXTENSION_DIGIT`), the GS1 company prefix (`GS1_COMPANY_PREFIX`), a serial reference the service never hands out twice, and the GS1 check digit; a number already taken (a zongpai registered by hand, a box, a location) is passed over.',
  response: { schema: ZongpaiResponse, description: 'The new zongpai, OPEN and empty' },
  errors: [
    'INVALID_ZONGPAI',
    'ZONGPAI_ALREADY_EXISTS',
    'SSCC_NOT_CONFIGURED',
    'SSCC_EXHAUSTED',
    ...DATABASE,
    ...ERP_VIEW,
  ],
}));
