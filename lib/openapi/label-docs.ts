import * as z from 'zod/mini';
import { SVG_MEDIA_TYPE } from '../label/svg.ts';
import { ZPL_MEDIA_TYPE } from '../label/zpl.ts';

/** What the label routes answer: the label itself, ZPL or SVG text (no binary media types at the gateway). */
export const LabelResponse = {
  schema: z.string(),
  description: `The label: ZPL II (\`${ZPL_MEDIA_TYPE}\`) or an SVG document (\`${SVG_MEDIA_TYPE}\`)`,
  media: [ZPL_MEDIA_TYPE, SVG_MEDIA_TYPE],
};

/** How the label routes' `format` chooses the answer, for their descriptions. */
export const LABEL_FORMAT_DOC = `\`format=zpl\` (the default) answers ZPL II for a 203 dpi label printer (812 × 1218 dots, UTF-8 text with ^CI28; Chinese text needs a CJK font loaded on the printer); \`format=svg\` answers an SVG document of 4 × 6 inches with the text as text. Errors are the JSON error body.`;
