import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { LABEL_FORMAT_DOC, LabelResponse } from '../../lib/openapi/label-docs.ts';

/** What the API reference says of GET /v1/zongpai/{zongpai_no}/label (functions/zongpai-label.ts). */
export const documentation = documentRoute('ZongpaiLabel', () => ({
  summary: "A zongpai's shipping label, 4 × 6 inch, in ZPL or SVG",
  description: `The zongpai number as a barcode (GS1-128 with application identifier (00) when it is an SSCC, Code 128 otherwise) with its text beneath; its box count, total quantity and status; the order number and customer when all its boxes belong to one order, otherwise \`MIXED\` and the number of orders. ${LABEL_FORMAT_DOC}`,
  response: LabelResponse,
  errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
}));
