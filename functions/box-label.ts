import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { textAnswer } from '../lib/http/text-answer.ts';
import { makeBoxLabel } from '../lib/label/label.ts';
import { labelSchemas } from '../lib/label/schemas.ts';

/** GET /v1/box/{box_no}/label?format=zpl|svg: the box's label, boxed or not yet. */
export const spec = defineRoute({
  id: 'BoxLabel',
  method: 'GET',
  path: '/v1/box/{box_no}/label',
  access: 'reader',
  status: 200,
  example: { path: { box_no: 'BOX-1001' }, query: { format: 'svg' } },
  schemas: labelSchemas.box,
  make: makeBoxLabel,
  handle: async (label, { path, query }) => {
    const { contentType, text } = await label(path.box_no, query.format);
    return textAnswer(contentType, text);
  },
});

export const handler = lambdaHandler(spec, process.env);
