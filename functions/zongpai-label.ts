import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { textAnswer } from '../lib/http/text-answer.ts';
import { makeZongpaiLabel } from '../lib/label/label.ts';
import { labelSchemas } from '../lib/label/schemas.ts';
import { LABEL_FORMAT_DOC, LabelResponse } from '../lib/openapi/label-docs.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** GET /v1/zongpai/{zongpai_no}/label?format=zpl|svg: the zongpai's shipping label (GS1 logistic label for an SSCC). */
export const spec = defineRoute({
  id: 'ZongpaiLabel',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}/label',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: "A zongpai's shipping label, 4 × 6 inch, in ZPL or SVG",
        description: `The zongpai number as a barcode (GS1-128 with application identifier (00) when it is an SSCC, Code 128 otherwise) with its text beneath; its box count, total quantity and status; the order number and customer when all its boxes belong to one order, otherwise \`MIXED\` and the number of orders. ${LABEL_FORMAT_DOC}`,
        response: LabelResponse,
        errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
      }),
  example: { path: { zongpai_no: 'PLT-0001' }, query: { format: 'svg' } },
  schemas: labelSchemas.zongpai,
  make: makeZongpaiLabel,
  handle: async (label, { path, query }) => {
    const { contentType, text } = await label(path.zongpai_no, query.format);
    return textAnswer(contentType, text);
  },
});

export const handler = lambdaHandler(spec, process.env);
