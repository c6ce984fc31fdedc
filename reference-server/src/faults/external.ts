/**
 * The `xxe-resolved` and `xxe-file-read` faults: external entities and DTDs of a request document are resolved —
 * safely. Under `xxe-resolved` only `http://` URLs on loopback are contacted (a real request, 2 s timeout, answer
 * discarded after 4 KiB; its content is not used, since the handler is synchronous); under `xxe-file-read` only
 * `file:` URLs inside the system's temporary directory are read (at most 1 KiB). Anything else resolves to empty text.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTACT_TIMEOUT_MS = 2000;
const MAX_ANSWER_BYTES = 4096;
const MAX_FILE_BYTES = 1024;
const MAX_CONTACTS = 4;

const LITERAL = String.raw`(?:"([^"]*)"|'([^']*)')`;
/** `<!ENTITY [%] name SYSTEM "url">` or `<!ENTITY [%] name PUBLIC "id" "url">`. */
const EXTERNAL_ENTITY = new RegExp(
  String.raw`<!ENTITY\s+(%\s+)?([A-Za-z_][\w.-]*)\s+(?:SYSTEM|PUBLIC\s+${LITERAL})\s+${LITERAL}\s*>`,
  'g',
);
/** The external subset of `<!DOCTYPE name SYSTEM "url"` or `PUBLIC "id" "url"`. */
const EXTERNAL_SUBSET = new RegExp(
  String.raw`(<!DOCTYPE\s+[A-Za-z_][\w.-]*)\s+(?:SYSTEM|PUBLIC\s+${LITERAL})\s+${LITERAL}`,
);

/** Contacts a loopback http URL, discarding the answer; never throws. */
export function contactLoopback(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return;
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (u.protocol !== 'http:' || !(host === 'localhost' || host === '::1' || /^127\./.test(host))) return;
  try {
    const req = request(u, { method: 'GET', agent: false, timeout: CONTACT_TIMEOUT_MS }, (res) => {
      let seen = 0;
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > MAX_ANSWER_BYTES) res.destroy();
      });
      res.on('error', () => {});
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => {});
    req.end();
  } catch {
    // an unusable URL is simply not resolved
  }
}

/** The text of a `file:` URL inside the temporary directory, at most 1 KiB, or empty text. */
function readTemporaryFile(url: string): string {
  try {
    const file = realpathSync(fileURLToPath(url));
    const root = realpathSync(tmpdir());
    if (!file.startsWith(root + path.sep) || statSync(file).size > MAX_FILE_BYTES) return '';
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Which external references are resolved: loopback http URLs (contacted), files in the temporary directory (read). */
export interface Resolve {
  http: boolean;
  file: boolean;
}

function resolve(url: string, how: Resolve, contacts: { n: number }): string {
  if (url.startsWith('file:')) return how.file ? readTemporaryFile(url) : '';
  if (how.http && contacts.n++ < MAX_CONTACTS) contactLoopback(url);
  return '';
}

/**
 * The document with its external declarations resolved: each external general entity becomes an internal one with
 * the resolved text (characters that would break the literal removed), parameter entities and the external subset
 * are dropped after being resolved. Undefined when the document declares nothing external.
 */
export function resolveExternalEntities(text: string, how: Resolve): string | undefined {
  const contacts = { n: 0 };
  let found = false;
  const parameters: string[] = [];
  let out = text.replace(
    EXTERNAL_ENTITY,
    (_m, percent: string | undefined, name: string, _p1, _p2, u1: string | undefined, u2: string | undefined) => {
      found = true;
      const value = resolve(u1 ?? u2 ?? '', how, contacts);
      if (percent !== undefined) {
        parameters.push(name);
        return '';
      }
      return `<!ENTITY ${name} "${value.replace(/["&<%]/g, '')}">`;
    },
  );
  out = out.replace(EXTERNAL_SUBSET, (_m, head: string, _p1, _p2, u1: string | undefined, u2: string | undefined) => {
    found = true;
    resolve(u1 ?? u2 ?? '', how, contacts);
    return head;
  });
  for (const name of parameters) out = out.split(`%${name};`).join('');
  return found ? out : undefined;
}
