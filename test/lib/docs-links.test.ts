import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README and the pages under docs/ link each other by relative paths and `#anchors`: every
 * such link must reach a file that exists and, for an anchor into a Markdown page, one of its
 * headings. Web addresses are not followed.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');

/** The text without fenced code blocks and inline code, where brackets are not links. */
const prose = (markdown: string): string =>
  markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** The anchors of a page's headings (inline code marks dropped), a repeated one numbered as GitHub numbers it. */
const headingAnchors = (markdown: string): Set<string> => {
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of withoutFences.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug((heading as string).replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${String(count)}`);
  }
  return found;
};

/** Every relative link target of a page: `[text](target)` and `![alt](target)`. */
const linkTargets = (markdown: string): string[] =>
  [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map(([, target]) => target as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));

/** What is wrong with each link of `file` (a path from the repository root), as `file: target (why)`. */
const brokenLinks = (file: string, markdown: string, read: (path: string) => string | undefined): string[] =>
  linkTargets(markdown).flatMap((target) => {
    const [path = '', anchor] = target.split('#', 2);
    const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    const body = read(resolved);
    if (body === undefined) return [`${file}: ${target} (no such file)`];
    if (anchor === undefined || anchor === '') return [];
    if (!resolved.endsWith('.md')) return [`${file}: ${target} (an anchor into a file that is not Markdown)`];
    return headingAnchors(body).has(anchor.toLowerCase()) ? [] : [`${file}: ${target} (no such heading)`];
  });

/** A file's text, '' for a folder, undefined when nothing is there. */
const readFromRepository = (path: string): string | undefined => {
  const full = join(ROOT, path);
  if (!full.startsWith(ROOT) || !existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
};

const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

describe('documentation links', () => {
  it('finds a missing page, a missing heading and a missing picture in a sample page', () => {
    const sample = [
      '# Sample',
      '## `npm start` and the tests',
      'See [the guide](docs/NOWHERE.md), [this](#npm-start-and-the-tests), [that](#no-such-heading),',
      '![a picture](docs/screenshots/none.png) and [the web](https://example.com/x.md#y).',
      '```',
      '[not a link](docs/ALSO-NOWHERE.md)',
      '```',
    ].join('\n');
    const files: Record<string, string> = { 'README.md': sample };

    const broken = brokenLinks('README.md', sample, (path) => files[path]);

    expect(broken).toEqual([
      'README.md: docs/NOWHERE.md (no such file)',
      'README.md: #no-such-heading (no such heading)',
      'README.md: docs/screenshots/none.png (no such file)',
    ]);
  });

  it('makes the anchors GitHub makes of headings', () => {
    const page = '# Performance\n## 4. A year of history\n## The handheld app’s budgets\n## Notes\n## Notes';

    expect([...headingAnchors(page)]).toEqual([
      'performance',
      '4-a-year-of-history',
      'the-handheld-apps-budgets',
      'notes',
      'notes-1',
    ]);
  });

  it.each(pages)('%s: every relative link and anchor resolves', (page) => {
    const broken = brokenLinks(page, readFileSync(join(ROOT, page), 'utf8'), readFromRepository);

    expect(broken, `broken links in ${relative(ROOT, join(ROOT, page))}`).toEqual([]);
  });

  it('has a page for each concern the README sends its reader to', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

    expect(linkTargets(readme).map((target) => target.split('#')[0])).toEqual(
      expect.arrayContaining([
        'docs/HANDHELD.md',
        'docs/ERP.md',
        'docs/DEPLOYMENT.md',
        'docs/OPERATIONS.md',
        'docs/LOCAL.md',
        'docs/PERFORMANCE.md',
        'docs/ARCHITECTURE.md',
        'docs/API.md',
      ]),
    );
  });
});
