/** Escaping and small formatting helpers for the HTML report. Nothing here ever emits unescaped input. */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML element content and double- or single-quoted attribute values.
 *
 * @param value - any value; it is converted with `String` first.
 * @returns the text with `& < > " '` replaced by character references.
 */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * A fragment link (`#…`) to an element id: percent-encoded, then escaped for the attribute.
 *
 * @param id - the target element's id.
 */
export function href(id: string): string {
  return esc(`#${encodeURIComponent(id)}`);
}

/**
 * Pretty JSON that never throws (bigints become strings, cycles are marked), for counterexample values.
 *
 * @param value - the value to print.
 */
export function prettyJson(value: unknown): string {
  const seen = new WeakSet<object>();
  try {
    return (
      JSON.stringify(
        value,
        (_key, v: unknown) => {
          if (typeof v === 'bigint') return `${v.toString()}n`;
          if (v !== null && typeof v === 'object') {
            if (seen.has(v)) return '[circular]';
            seen.add(v);
          }
          return v;
        },
        2,
      ) ?? 'undefined'
    );
  } catch (err) {
    return `[unprintable: ${(err as Error).message}]`;
  }
}

/**
 * A duration for people: `850 ms`, `12.3 s`, `2 min 05 s`.
 *
 * @param ms - milliseconds.
 */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return `${ms} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * `1 request`, `3 requests`.
 *
 * @param n - the count.
 * @param word - the singular noun.
 */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
