import type { Language } from './catalogue.ts';

/**
 * Picks the message language from an `Accept-Language` header: Simplified Chinese when the
 * client prefers any `zh` tag over English, English otherwise.
 *
 * @example
 * ```ts
 * preferredLanguage('zh-CN,zh;q=0.9,en;q=0.8'); // 'zh'
 * preferredLanguage('en-US,zh;q=0.5');          // 'en'
 * ```
 */
export const preferredLanguage = (header: string | undefined): Language => {
  if (header === undefined) return 'en';
  let best: { language: Language; q: number } = { language: 'en', q: 0 };
  for (const part of header.split(',').slice(0, 20)) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q)) continue;
    const language: Language | undefined =
      tag === 'zh' || tag.startsWith('zh-')
        ? 'zh'
        : tag === 'en' || tag.startsWith('en-') || tag === '*'
          ? 'en'
          : undefined;
    if (language !== undefined && q > best.q) best = { language, q };
  }
  return best.language;
};
