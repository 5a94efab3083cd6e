import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { LABEL_FORMAT_DOC, LabelResponse } from '../../lib/openapi/label-docs.ts';

/** What the API reference says of GET /v1/box/{box_no}/label (functions/box-label.ts). */
export const documentation = documentRoute('BoxLabel', () => ({
  summary: "A box's label, 4 × 6 inch, in ZPL or SVG",
  description: `The box number as a barcode (GS1-128 with application identifier (00) when it is an SSCC, Code 128 otherwise) with its text beneath; its order number, customer, zongpai (if boxed) and total quantity. A box of the ERP plan that is not boxed yet has a label too, with the quantity its plan comes to. ${LABEL_FORMAT_DOC}`,
  response: LabelResponse,
  errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'BOX_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
}));
