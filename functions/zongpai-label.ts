import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { textAnswer } from '../lib/http/text-answer.ts';
import { makeZongpaiLabel } from '../lib/label/label.ts';
import { labelSchemas } from '../lib/label/schemas.ts';

/** GET /v1/zongpai/{zongpai_no}/label?format=zpl|svg: the zongpai's shipping label (GS1 logistic label for an SSCC). */
export const spec = defineRoute({
  id: 'ZongpaiLabel',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}/label',
  access: 'reader',
  status: 200,
  example: { path: { zongpai_no: 'PLT-0001' }, query: { format: 'svg' } },
  schemas: labelSchemas.zongpai,
  make: makeZongpaiLabel,
  handle: async (label, { path, query }) => {
    const { contentType, text } = await label(path.zongpai_no, query.format);
    return textAnswer(contentType, text);
  },
});

export const handler = lambdaHandler(spec, process.env);
