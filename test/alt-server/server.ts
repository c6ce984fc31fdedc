/**
 * A second, tiny, independent implementation of the article part of SPEC.md (§2, §4.1–§4.3). It keeps every rule but
 * makes the other choice wherever the spec leaves room: 204 on replace, an absolute Location on POST, text/xml,
 * reordered and re-encoded documents, unknown children ignored, 422 for bad XML, 501 for PATCH, no /article alias.
 * Authentication (§4.3 rule 2, §4.4, §5; see auth.ts) differs too: signed requests only (no Basic, no TLS), in
 * `X-Authentication`, no body hash, a 300 s window, one nonce store for all users, 404 for another user's records
 * (hiding that they exist), JSON records, and text/plain 401s challenging `hmac realm="alt", charset="UTF-8"`.
 * `GET /` and `/users/<name>/financialrecords` need credentials, and so do article writes; reads stay public and
 * OPTIONS never needs any (without valid credentials it lists only the methods open to everyone).
 * It shares no code with harness/ or reference-server/ on purpose.
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { CHALLENGE, createVerifier } from './auth.js';

export interface AltServer {
  url: string;
  /** Nonces the server currently remembers. */
  nonceCount(): number;
  close(): Promise<void>;
}

export interface AltServerOptions {
  port?: number;
  /** User name → HMAC shared secret. Default carol / carol-s and dave / dave-s (as in profile.yaml). */
  users?: Record<string, string>;
  /** Accepted clock difference of signed Dates, seconds. Default 300. */
  window?: number;
  /** The server clock, ms since the epoch. Default Date.now. */
  now?: () => number;
  /** Most nonces remembered at once; past it new signed requests get 503. Default 200 000. */
  nonceCap?: number;
}

const DEFAULT_USERS: Record<string, string> = { carol: 'carol-s', dave: 'dave-s' };

interface Article {
  title: string;
  price: string;
  currency: string;
}

const BODY_CAP = 256 * 1024;
const SLUG = /^[A-Za-z0-9._~-]+$/;
const IMPLEMENTED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
type Kind = 'root' | 'records' | 'collection' | 'item';
/** What each kind of resource handles, and the part of it open to requests without valid credentials. */
const ALLOW: Record<Kind, string> = {
  root: 'GET,HEAD,OPTIONS',
  records: 'GET,HEAD,OPTIONS',
  collection: 'GET,HEAD,POST,OPTIONS',
  item: 'GET,HEAD,PUT,DELETE,OPTIONS',
};
const PUBLIC_ALLOW: Record<Kind, string> = {
  root: 'GET,HEAD,OPTIONS',
  records: 'GET,HEAD,OPTIONS',
  collection: 'GET,HEAD,OPTIONS',
  item: 'GET,HEAD,OPTIONS',
};
const WRITES = new Set(['PUT', 'POST', 'DELETE']);
const RECORDS = /^\/users\/([^/]+)\/financialrecords$/;

class BadXml extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// A minimal XML reader: elements, attributes, text, CDATA, comments, PIs, the five predefined entities and numeric
// character references. No DTD support at all (a DOCTYPE is refused before parsing).

interface El {
  name: string;
  attrs: Record<string, string>;
  kids: El[];
  text: string;
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /[A-Za-z_:][\w.:\-\u00b7\u00c0-\uffff]*/y;

function decodeRefs(raw: string): string {
  if (/[<]/.test(raw)) throw new BadXml('"<" in text');
  return raw.replace(/&([^;]*);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new BadXml('bare "&"');
    const num = /^#x([0-9a-fA-F]{1,6})$/.exec(ref) ?? /^#([0-9]{1,7})$/.exec(ref);
    if (num) {
      const cp = parseInt(num[1]!, ref[1] === 'x' ? 16 : 10);
      const ok =
        cp === 0x9 ||
        cp === 0xa ||
        cp === 0xd ||
        (cp >= 0x20 && cp <= 0xd7ff) ||
        (cp >= 0xe000 && cp <= 0xfffd) ||
        (cp >= 0x10000 && cp <= 0x10ffff);
      if (!ok) throw new BadXml(`bad character reference ${m}`);
      return String.fromCodePoint(cp);
    }
    const v = PREDEFINED[ref];
    if (v === undefined) throw new BadXml(`unknown entity ${m}`);
    return v;
  });
}

function parseXml(src: string): El {
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(src)) throw new BadXml('control character');
  const s = src.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
  let i = 0;
  const fail = (what: string): never => {
    throw new BadXml(`${what} at offset ${i}`);
  };
  const skipWs = () => {
    while (i < s.length && ' \t\n'.includes(s[i]!)) i++;
  };
  const skipTo = (end: string) => {
    const j = s.indexOf(end, i);
    if (j < 0) fail(`missing ${end}`);
    const body = s.slice(i, j);
    i = j + end.length;
    return body;
  };
  const misc = () => {
    for (;;) {
      skipWs();
      if (s.startsWith('<?', i)) ((i += 2), skipTo('?>'));
      else if (s.startsWith('<!--', i)) ((i += 4), skipTo('-->'));
      else return;
    }
  };
  const name = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(s);
    if (!m) return fail('expected a name');
    i += m[0].length;
    return m[0];
  };
  const element = (): El => {
    if (s[i] !== '<') fail('expected "<"');
    i++;
    const el: El = { name: name(), attrs: {}, kids: [], text: '' };
    for (;;) {
      const before = i;
      skipWs();
      if (s.startsWith('/>', i)) return ((i += 2), el);
      if (s[i] === '>') break;
      if (i === before) fail('expected whitespace');
      const a = name();
      skipWs();
      if (s[i++] !== '=') fail('expected "="');
      skipWs();
      const q = s[i++];
      if (q !== '"' && q !== "'") fail('expected a quote');
      if (a in el.attrs) fail(`duplicate attribute ${a}`);
      el.attrs[a] = decodeRefs(skipTo(q!)).replace(/[\t\n]/g, ' ');
    }
    i++;
    for (;;) {
      const lt = s.indexOf('<', i);
      if (lt < 0) fail('unclosed element');
      el.text += decodeRefs(s.slice(i, lt));
      i = lt;
      if (s.startsWith('</', i)) {
        i += 2;
        if (name() !== el.name) fail('mismatched end tag');
        skipWs();
        if (s[i++] !== '>') fail('expected ">"');
        return el;
      }
      if (s.startsWith('<![CDATA[', i)) ((i += 9), (el.text += skipTo(']]>')));
      else if (s.startsWith('<!--', i)) ((i += 4), skipTo('-->'));
      else if (s.startsWith('<?', i)) ((i += 2), skipTo('?>'));
      else el.kids.push(element());
    }
  };
  misc();
  const root = element();
  misc();
  if (i !== s.length) fail('content after the root element');
  return root;
}

function readArticle(body: string): Article | string {
  if (/<!DOCTYPE/i.test(body)) return 'document type declarations are not accepted';
  let root: El;
  try {
    root = parseXml(body);
  } catch (err) {
    return `malformed XML: ${(err as Error).message}`;
  }
  if (root.name !== 'article') return 'the root element must be <article>';
  const titles = root.kids.filter((k) => k.name === 'title');
  const prices = root.kids.filter((k) => k.name === 'price');
  if (titles.length !== 1 || prices.length !== 1) return 'exactly one <title> and one <price> are required';
  const [t, p] = [titles[0]!, prices[0]!];
  if (t.kids.length > 0 || t.text === '') return '<title> must hold non-empty text';
  if (p.kids.length > 0 || !/^\d+\.\d+$/.test(p.text)) return '<price> must be a decimal with a fractional part';
  const currency = p.attrs['currency'];
  if (currency === undefined || !/^[a-z]{3}$/.test(currency)) return 'price@currency must be three lowercase letters';
  return { title: t.text, price: p.text, currency };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing: price first, single quotes, every non-ASCII character as a numeric reference, CDATA for titles with "<".

const ref = (cp: number) => (cp > 0xffff ? `&#x${cp.toString(16).toUpperCase()};` : `&#${cp};`);
const needsRef = (cp: number) => cp > 0x7e || (cp < 0x20 && cp !== 0x9 && cp !== 0xa);
const ENT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&apos;' };

function escapeText(s: string): string {
  let out = '';
  for (const ch of s) out += needsRef(ch.codePointAt(0)!) ? ref(ch.codePointAt(0)!) : (ENT[ch] ?? ch);
  return out;
}

/** ASCII runs go into CDATA sections (with "]]>" split across two), other characters become references between them. */
function cdataText(s: string): string {
  let out = '';
  let run = '';
  const flush = () => {
    if (run) out += `<![CDATA[${run.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
    run = '';
  };
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (needsRef(cp)) (flush(), (out += ref(cp)));
    else run += ch;
  }
  flush();
  return out;
}

function normalizePrice(p: string): string {
  const [int, frac] = p.split('.') as [string, string];
  return `${int.replace(/^0+(?=\d)/, '')}.${frac.replace(/(?<=\d)0+$/, '')}`;
}

function writeArticle(id: string, a: Article): string {
  const title = a.title.includes('<') ? cdataText(a.title) : escapeText(a.title);
  return (
    `<?xml version='1.0' encoding='UTF-8'?>\n<article>\n  <id>${escapeText(id)}</id>\n` +
    `  <link rel='self' href='/articles/${escapeText(id)}'/>\n` +
    `  <price currency='${escapeText(a.currency)}'>${normalizePrice(a.price)}</price>\n` +
    `  <title>${title}</title>\n</article>\n`
  );
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body = '',
): void {
  const buf = Buffer.from(body, 'utf8');
  res.writeHead(status, status === 204 ? headers : { ...headers, 'Content-Length': String(buf.length) });
  res.end(req.method === 'HEAD' || status === 204 ? undefined : buf);
}

const text = (
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  msg: string,
  headers: Record<string, string> = {},
) => send(req, res, status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, `${msg}\n`);

/** Reads the body; past the cap the rest is drained and discarded (so the 413 arrives cleanly) and null returned. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= BODY_CAP) chunks.push(c);
    });
    req.on('end', () => resolve(size > BODY_CAP ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function startAltServer(options: AltServerOptions = {}): Promise<AltServer> {
  const store = new Map<string, Article>();
  const verifier = createVerifier({
    users: new Map(Object.entries(options.users ?? DEFAULT_USERS)),
    window: options.window ?? 300,
    now: options.now ?? Date.now,
    nonceCap: options.nonceCap ?? 200_000,
  });
  let origin = '';

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? '';
    const target = req.url ?? '/';
    const path = target.split('?')[0]!;
    const body = await readBody(req);
    if (!IMPLEMENTED.has(method)) return text(req, res, 501, `${method} is not implemented by this server`);

    // Credentials are judged once, whatever the method or resource: a valid nonce-form request takes its nonce.
    // Where none are needed (OPTIONS, article reads), invalid ones count as none.
    const auth = verifier.verify(method, target, req.headers);
    if (auth.kind === 'busy')
      return text(req, res, 503, 'too many signed requests at once; retry later', {
        'Retry-After': String(auth.retryAfter),
      });
    const user = auth.kind === 'ok' ? auth.user : undefined;

    const itemId = path.startsWith('/articles/') ? path.slice('/articles/'.length) : undefined;
    const owner = RECORDS.exec(path)?.[1];
    const kind: Kind | undefined =
      path === '/'
        ? 'root'
        : path === '/articles'
          ? 'collection'
          : itemId !== undefined && SLUG.test(itemId)
            ? 'item'
            : owner !== undefined
              ? 'records'
              : undefined;
    if (kind === undefined) return text(req, res, 404, 'no such resource');
    const allow = user ? ALLOW[kind] : PUBLIC_ALLOW[kind];
    if (method === 'OPTIONS') return text(req, res, 200, allow.split(',').join('\n'), { Allow: allow });
    if (!ALLOW[kind].split(',').includes(method))
      return text(req, res, 405, `${method} is not allowed here; allowed: ${allow}`, { Allow: allow });
    const needsAuth = kind === 'root' || kind === 'records' || WRITES.has(method);
    if (needsAuth && !user) {
      const why =
        auth.kind === 'bad' ? auth.why : 'credentials are required: X-Authentication: hmac <user>:[<nonce>:]<digest>';
      return text(req, res, 401, why, { 'WWW-Authenticate': CHALLENGE });
    }
    if (body === null) return text(req, res, 413, `request bodies are limited to ${BODY_CAP} bytes`);
    if (kind === 'root') return text(req, res, 200, `article service: see /articles (signed in as ${user})`);
    if (kind === 'records') {
      // Another user's records (or those of a user that does not exist) are not found, rather than forbidden.
      if (owner !== user) return text(req, res, 404, 'no such resource');
      return send(req, res, 200, { 'Content-Type': 'application/json' }, JSON.stringify({ user, records: [] }));
    }

    const incoming = (): Article | undefined => {
      if (!/xml/i.test(req.headers['content-type'] ?? ''))
        return (text(req, res, 415, 'send the article as XML'), undefined);
      let src: string;
      try {
        src = new TextDecoder('utf-8', { fatal: true }).decode(body);
      } catch {
        return (text(req, res, 422, 'the body is not UTF-8'), undefined);
      }
      const a = readArticle(src);
      return typeof a === 'string' ? (text(req, res, 422, a), undefined) : a;
    };

    if (kind === 'collection') {
      if (method === 'POST') {
        const a = incoming();
        if (!a) return;
        const id = randomUUID();
        store.set(id, a);
        return send(req, res, 201, { Location: `${origin}/articles/${id}` });
      }
      const items = [...store.keys()].map((id) => `  <item href='/articles/${id}'/>\n`).join('');
      return send(
        req,
        res,
        200,
        { 'Content-Type': 'text/xml; charset=utf-8' },
        `<?xml version='1.0'?>\n<articles>\n${items}</articles>\n`,
      );
    }
    const id = itemId!;
    if (method === 'PUT') {
      const a = incoming();
      if (!a) return;
      const existed = store.has(id);
      store.set(id, a);
      return existed ? send(req, res, 204, {}) : send(req, res, 201, { Location: `/articles/${id}` });
    }
    const a = store.get(id);
    if (!a) return text(req, res, 404, `no article ${id}`);
    if (method === 'DELETE') return (store.delete(id), text(req, res, 200, 'deleted'));
    return send(req, res, 200, { 'Content-Type': 'text/xml; charset=utf-8' }, writeArticle(id, a));
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) text(req, res, 500, 'internal error');
      else res.destroy();
    });
  });
  // Node's parser refuses method tokens it does not know; answer those 501 instead of the default 400.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, msg] =
      err.code === 'HPE_INVALID_METHOD'
        ? ['501 Not Implemented', 'method not implemented']
        : ['400 Bad Request', 'bad request'];
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${msg.length + 1}\r\nConnection: close\r\n\r\n${msg}\n`,
    );
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      origin = `http://127.0.0.1:${port}`;
      resolve({
        url: origin,
        nonceCount: () => verifier.nonces.size,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
