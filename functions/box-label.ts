import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { textAnswer } from '../lib/http/text-answer.ts';
import { makeBoxLabel } from '../lib/label/label.ts';
import { labelSchemas } from '../lib/label/schemas.ts';
import { LABEL_FORMAT_DOC, LabelResponse } from '../lib/openapi/label-docs.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** GET /v1/box/{box_no}/label?format=zpl|svg: the box's label, boxed or not yet. */
export const spec = defineRoute({
  id: 'BoxLabel',
  method: 'GET',
  path: '/v1/box/{box_no}/label',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: "A box's label, 4 × 6 inch, in ZPL or SVG",
        description: `The box number as a barcode (GS1-128 with application identifier (00) when it is an SSCC, Code 128 otherwise) with its text beneath; its order number, customer, zongpai (if boxed) and total quantity. A box of the ERP plan that is not boxed yet has a label too, with the quantity its plan comes to. ${LABEL_FORMAT_DOC}`,
        response: LabelResponse,
        errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'BOX_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
      }),
  example: { path: { box_no: 'BOX-1001' }, query: { format: 'svg' } },
  schemas: labelSchemas.box,
  make: makeBoxLabel,
  handle: async (label, { path, query }) => {
    const { contentType, text } = await label(path.box_no, query.format);
    return textAnswer(contentType, text);
  },
});

export const handler = lambdaHandler(spec, process.env);
