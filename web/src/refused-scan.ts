import type { Notice } from './context.ts';
import { headlineFor, instructionFor, sentences, translate, type Lang, type RefusalCode } from './i18n.ts';
import type { QueuedScan } from './queue.ts';

/**
 * A scan refused on the device, at once (a code that cannot be what the screen asks for): said
 * as the service's refusals are, what happened and then what to do, `what` (which scan, where)
 * before the instruction when given.
 */
export const refusalAtScan = (lang: Lang, errorCode: RefusalCode, what?: string): Notice => ({
  tone: 'error',
  text: headlineFor(lang, errorCode),
  detail: what === undefined ? instructionFor(lang, errorCode) : sentences(lang, what, instructionFor(lang, errorCode)),
  code: errorCode,
});

/** A location scan the service refused: which, where, why and what to do. */
export const refusedScanNotice = (lang: Lang, first: QueuedScan, count: number): Notice => {
  const error = first.error ?? { error_code: 'INTERNAL_ERROR', message: '' };
  const what = translate(lang, 'scanRefused', {
    cargo: first.scan.cargo_no.toUpperCase(),
    location: first.scan.location_code,
  });
  return {
    tone: 'error',
    text: count > 1 ? `${what} ${translate(lang, 'moreRefused', { n: count - 1 })}` : what,
    detail: sentences(lang, headlineFor(lang, error.error_code), instructionFor(lang, error.error_code)),
    serverMessage: error.message,
    code: error.error_code,
  };
};
