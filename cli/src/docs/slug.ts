/** GitHub's heading anchors: how a Markdown heading becomes the `#fragment` a link can point at. */

/** The text a heading renders to: links and images by their text, code spans by their content, no emphasis or HTML. */
export function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\*+/g, '')
    .trim();
}

/**
 * GitHub's slug of a heading's text (github-slugger): lowercased, every character but letters, marks, digits,
 * connector punctuation (`_`), spaces and `-` dropped, each space a `-`.
 */
export function githubSlug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Slugs of headings in one document, in order: a repeated slug gets `-1`, `-2`, … as on GitHub. */
export function createSlugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = githubSlug(heading);
    let slug = base;
    let n = seen.get(base) ?? 0;
    while (seen.has(slug)) slug = `${base}-${++n}`;
    seen.set(base, n);
    seen.set(slug, 0);
    return slug;
  };
}

/** The headings of a Markdown document (ATX and setext, outside fenced code), as written. */
export function markdownHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let fence: string | undefined;
  let previous = '';
  for (const line of markdown.split(/\r?\n/)) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      const marker = f[1] ?? '';
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      previous = '';
      continue;
    }
    if (fence !== undefined) continue;
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) headings.push(atx[1] ?? '');
    else if (
      /^ {0,3}(=+|-+)[ \t]*$/.test(line) &&
      previous.trim() !== '' &&
      !/^ {0,3}([-*+]|\d+[.)]|>|\|)/.test(previous)
    )
      headings.push(previous.trim());
    previous = atx ? '' : line;
  }
  return headings;
}

/** Every anchor a Markdown document offers: its headings' slugs and explicit `id`/`name` attributes of HTML tags. */
export function markdownAnchors(markdown: string): Set<string> {
  const slug = createSlugger();
  const anchors = new Set(markdownHeadings(markdown).map(slug));
  for (const m of markdown.matchAll(/<[a-z][^>]*\s(?:id|name)="([^"]+)"/gi)) anchors.add(m[1] ?? '');
  return anchors;
}
