/**
 * What an answer of the authorize endpoint holds for the OAuth 1 approval (approval.ts): the `oauth_verifier` it
 * carries, and the first form of a page, as a browser submits it — with its approving button, or its refusing one.
 */
import type { HttpResponse } from '../http/client.js';
import { formField } from '../http/form.js';

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const header = (r: HttpResponse, name: string) => [r.headers[name] ?? []].flat()[0];

/**
 * The `oauth_verifier` an answer carries: in a redirect's Location (query or fragment), or in the body — form-encoded,
 * JSON, or HTML/text (`oauth_verifier=…`, `"oauth_verifier": "…"`, an input named oauth_verifier).
 */
export function verifierIn(r: HttpResponse): string | undefined {
  const location = header(r, 'location');
  if (location !== undefined && r.status >= 300 && r.status < 400) {
    const parts = location.split(/[?#]/).slice(1);
    for (const part of parts) {
      const v = formField(part, 'oauth_verifier');
      if (v) return v;
    }
  }
  if (r.status < 200 || r.status >= 300) return undefined;
  const body = text(r.body).trim();
  const form = formField(body, 'oauth_verifier');
  if (form && !/[\s<>"]/.test(form)) return form;
  try {
    const json = JSON.parse(body) as unknown;
    if (
      typeof json === 'object' &&
      json !== null &&
      typeof (json as Record<string, unknown>)['oauth_verifier'] === 'string'
    )
      return (json as Record<string, string>)['oauth_verifier'];
  } catch {
    /* not JSON */
  }
  const input = /<input\b[^>]*\bname\s*=\s*["']?oauth_verifier["']?[^>]*>/i.exec(body)?.[0];
  const value = input === undefined ? undefined : /\bvalue\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(input);
  if (value) return decodeEntities(value[1] ?? value[2] ?? value[3] ?? '');
  const labelled = /oauth_verifier["']?\s*[:=]\s*["']?([A-Za-z0-9._~%+/-]+)/.exec(body);
  return labelled?.[1] !== undefined ? decodeURIComponent(labelled[1]) : undefined;
}

/** The names or values of a submit button that refuses: the owner's "no". */
const REFUSING_BUTTON = /^(deny|cancel|no|reject|decline|refuse)$/i;

/** The first form of a page, as a browser submits it. */
export interface PageForm {
  method: 'GET' | 'POST';
  /** Absolute. */
  action: string;
  /** What approving submits: hidden and text inputs with their values, checked checkboxes and radios, the first submit button that does not refuse. */
  fields: Array<[string, string]>;
  /** That approving button, when there is one (an entry of `fields`). */
  approve?: [string, string];
  /** The first submit button that refuses (named or valued deny, cancel, no, reject, decline, refuse). */
  refusal?: [string, string];
}

/** The first form of an HTML page as a browser submits it; undefined when the page has none. */
export function formOf(html: string, pageUrl: string): PageForm | undefined {
  const open = /<form\b([^>]*)>/i.exec(html);
  if (!open) return undefined;
  const close = html.indexOf('</form', open.index);
  const inner = html.slice(open.index + open[0].length, close < 0 ? undefined : close);
  const attr = (tag: string, name: string) => {
    const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
    return m === null ? undefined : decodeEntities(m[1] ?? m[2] ?? m[3] ?? '');
  };
  const method = (attr(open[1] ?? '', 'method') ?? 'GET').toUpperCase() === 'POST' ? 'POST' : 'GET';
  const action = new URL(attr(open[1] ?? '', 'action') ?? '', pageUrl).toString();
  const fields: Array<[string, string]> = [];
  let approve: [string, string] | undefined;
  let refusal: [string, string] | undefined;
  for (const m of inner.matchAll(/<(input|button)\b([^>]*)>/gi)) {
    const tag = m[2] ?? '';
    const name = attr(tag, 'name');
    const type = (attr(tag, 'type') ?? (m[1]!.toLowerCase() === 'button' ? 'submit' : 'text')).toLowerCase();
    if (name === undefined) continue;
    const value = attr(tag, 'value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : '');
    if (type === 'submit' || type === 'image') {
      if (REFUSING_BUTTON.test(value) || REFUSING_BUTTON.test(name)) refusal ??= [name, value];
      else if (approve === undefined) {
        approve = [name, value];
        fields.push(approve);
      }
    } else if (type === 'checkbox' || type === 'radio') {
      if (/\bchecked\b/i.test(tag)) fields.push([name, value]);
    } else if (type !== 'reset' && type !== 'file') fields.push([name, value]);
  }
  return { method, action, fields, ...(approve ? { approve } : {}), ...(refusal ? { refusal } : {}) };
}

/** What denying submits: the form's fields without its approving button, and the refusal's fields. */
export function denyingFields(form: PageForm, deny: Record<string, string>): Array<[string, string]> {
  return [...form.fields.filter((f) => f !== form.approve), ...Object.entries(deny)];
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower] ?? '';
  });
}
