// A client of the reference server for `conform check-client` tests, written apart from conform's own signers (only
// node:crypto): `node node-client.mjs good` signs as docs/auth.md says; `node node-client.mjs wrong` makes five
// classic client mistakes, one request each (after a correct one): a nonce reused within the same second, Basic over
// plain HTTP, an uppercase month kept in the date text, a digest over the path without the nonce, and a PUT whose
// article has no price; `node node-client.mjs skewed` signs right with a clock 20 minutes slow; `node node-client.mjs
// articles` PUTs complete articles the reference server's parser does not take (one with an <author> element, one in
// ISO-8859-1); `node node-client.mjs no-body-hash` PUTs and POSTs signed without the body hash, as §5.2 describes the
// message (rule 6: extra data "may be added").
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const env = process.env;
const ca = readFileSync(env.CONFORM_CA_FILE ?? '');
const user = env.CONFORM_USER ?? '';
const records = `/users/${user}/financialrecords`;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n) => String(n).padStart(2, '0');

/** `DD Mon YYYY hh:mm:ss` in UTC. */
function specDate(at) {
  const time = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
  return `${two(at.getUTCDate())} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()} ${time}`;
}

const digest = (message) =>
  createHmac('sha256', env.CONFORM_SECRET ?? '')
    .update(message, 'utf8')
    .digest('base64');

/** What the diagnostics of refusals named (`-` for none), in request order. */
const mistakes = [];

/** One request; resolves to its status, and notes the mistake a diagnostic refusal names. */
function send(base, path, headers, method = 'GET', body = '') {
  const url = new URL(path, base);
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method, headers, ca, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        let mistake = '-';
        try {
          mistake = JSON.parse(body).diagnostic?.mistake ?? '-';
        } catch {
          // Not JSON: an accepted request's XML.
        }
        mistakes.push(mistake);
        resolve(res.statusCode);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A date-and-nonce signed PUT (or POST) of `xml` (text, sent as UTF-8, or bytes) to `path`, its message ending with
 * the body hash (docs/auth.md) unless `hashed` is false.
 */
function put(path, xml, nonce, date, { method = 'PUT', hashed = true } = {}) {
  const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
  const hash = createHash('sha256').update(bytes).digest('base64');
  const message = `${method}+${path}+${date.replaceAll(' ', '').toLowerCase()}+${nonce}${hashed ? `+${hash}` : ''}`;
  const headers = {
    authentication: `hmac ${user}:${nonce}:${digest(message)}`,
    date,
    'content-type': 'application/xml',
  };
  return send(env.CONFORM_HTTPS_URL, path, headers, method, bytes);
}

/** A date-and-nonce request whose digest is over `message(dateText)`. */
function signed(nonce, date, message) {
  return send(env.CONFORM_HTTPS_URL, records, {
    authentication: `hmac ${user}:${nonce}:${digest(message)}`,
    date,
  });
}

const date = specDate(new Date());
const text = date.replaceAll(' ', '').toLowerCase();
const base = Date.now() * 1000;
const statuses = [];
if (process.argv[2] === 'good') {
  for (let i = 1; i <= 3; i++) statuses.push(await signed(base + i, date, `GET+${records}+${text}+${base + i}`));
  const basic = Buffer.from(`${user}:${env.CONFORM_PASSWORD}`, 'utf8').toString('base64');
  statuses.push(await send(env.CONFORM_HTTPS_URL, records, { authorization: `Basic ${basic}` }));
  statuses.push(
    await send(env.CONFORM_HTTP_URL, records, { authentication: `hmac ${user}:${digest(`GET+${records}`)}` }),
  );
  const article = '<article><title>Hello</title><price currency="eur">12.50</price></article>';
  statuses.push(await put(`/articles/node-client-${base}`, article, base + 4, date));
} else if (process.argv[2] === 'articles') {
  const extra = '<article><title>Extra</title><author>Ann</author><price currency="eur">3.20</price></article>';
  statuses.push(await put(`/articles/node-extra-${base}`, extra, base + 1, date));
  const latin1 = Buffer.from(
    '<?xml version="1.0" encoding="ISO-8859-1"?><article><title>Café</title><price currency="eur">4.00</price></article>',
    'latin1',
  );
  statuses.push(await put(`/articles/node-latin1-${base}`, latin1, base + 2, date));
} else if (process.argv[2] === 'no-body-hash') {
  const article = '<article><title>Unhashed</title><price currency="eur">5.00</price></article>';
  const plain = { hashed: false };
  statuses.push(await put(`/articles/node-unhashed-${base}`, article, base + 1, date, plain));
  statuses.push(await put('/articles', article, base + 2, date, { ...plain, method: 'POST' }));
} else if (process.argv[2] === 'skewed') {
  // A clock 20 minutes slow: the Date is signed right but lies outside the server's 600 s window.
  const slow = specDate(new Date(Date.now() - 20 * 60 * 1000));
  const slowText = slow.replaceAll(' ', '').toLowerCase();
  statuses.push(await signed(base + 1, slow, `GET+${records}+${slowText}+${base + 1}`));
} else {
  const nonce = base + 1;
  statuses.push(await signed(nonce, date, `GET+${records}+${text}+${nonce}`));
  statuses.push(await signed(nonce, date, `GET+${records}+${text}+${nonce}`));
  const basic = Buffer.from(`${user}:${env.CONFORM_PASSWORD}`, 'utf8').toString('base64');
  statuses.push(await send(env.CONFORM_HTTP_URL, '/', { authorization: `Basic ${basic}` }));
  statuses.push(await signed(base + 2, date, `GET+${records}+${date.replaceAll(' ', '')}+${base + 2}`));
  statuses.push(await signed(base + 3, date, `GET+${records}+${text}`));
  statuses.push(
    await put(`/articles/node-client-${base}`, '<article><title>No price</title></article>', base + 4, date),
  );
}
console.log(`statuses: ${statuses.join(' ')}`);
console.log(`diagnosed: ${mistakes.join(' ')}`);
