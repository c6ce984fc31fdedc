// An OAuth 1.0a client for `conform check-client` tests, with its own RFC 5849 signer (node:crypto only, nothing of
// conform's): temporary credentials, the owner's approval with Basic, token credentials, then a signed GET with a
// query. `node oauth1-client.mjs good` signs that GET over its query (RFC 5849 §3.4.1.3.1); `wrong` leaves the query
// out of the signed parameters, a classic mistake, and prints the mistake the diagnostic refusal names; `wrong-host`
// signs that GET for localhost while sending it to 127.0.0.1, `wrong-port` for the plain listener's port.
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';

const env = process.env;
const ca = readFileSync(env.CONFORM_CA_FILE ?? '');
const consumerKey = env.CONFORM_OAUTH1_CONSUMER_KEY ?? '';
const consumerSecret = env.CONFORM_OAUTH1_CONSUMER_SECRET ?? '';
const enc = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const order = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/** RFC 5849 §3.4: HMAC-SHA1 over the base string of `method`, the URL without its query, and `params`. */
function signature(method, url, params, tokenSecret) {
  const u = new URL(url);
  const normalized = params
    .map(([k, v]) => [enc(k), enc(v)])
    .sort(order)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const base = `${method}&${enc(`${u.protocol}//${u.host}${u.pathname}`)}&${enc(normalized)}`;
  return createHmac('sha1', `${enc(consumerSecret)}&${enc(tokenSecret)}`)
    .update(base)
    .digest('base64');
}

/** Sends a request signed in the Authorization header; resolves to { status, body }. */
function send(method, url, { token, extra = [], signQuery = true, basic, signedUrl = url } = {}) {
  const protocol = [
    ['oauth_consumer_key', consumerKey],
    ['oauth_nonce', randomBytes(12).toString('hex')],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', String(Math.floor(Date.now() / 1000))],
    ['oauth_version', '1.0'],
    ...(token ? [['oauth_token', token.key]] : []),
    ...extra,
  ];
  const query = signQuery ? [...new URL(url).searchParams] : [];
  const headers = {};
  if (basic) headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  else {
    const sig = signature(method, signedUrl, [...protocol, ...query], token?.secret ?? '');
    const fields = [...protocol, ['oauth_signature', sig]].map(([k, v]) => `${enc(k)}="${enc(v)}"`);
    headers.authorization = `OAuth ${fields.join(', ')}`;
  }
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, headers, ca, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const form = (r, what) => {
  if (r.status !== 200) throw new Error(`${what}: ${r.status}`);
  return Object.fromEntries(new URLSearchParams(r.body));
};
const temporary = form(
  await send('POST', env.CONFORM_OAUTH1_REQUEST_TOKEN_URL, { extra: [['oauth_callback', 'oob']] }),
  'request token',
);
const approval = form(
  await send('GET', `${env.CONFORM_OAUTH1_AUTHORIZE_URL}?oauth_token=${enc(temporary.oauth_token)}`, {
    basic: `${env.CONFORM_USER}:${env.CONFORM_PASSWORD}`,
  }),
  'authorize',
);
const tokens = form(
  await send('POST', env.CONFORM_OAUTH1_ACCESS_TOKEN_URL, {
    token: { key: temporary.oauth_token, secret: temporary.oauth_token_secret },
    extra: [['oauth_verifier', approval.oauth_verifier]],
  }),
  'access token',
);
const token = { key: tokens.oauth_token, secret: tokens.oauth_token_secret };
const url = `${env.CONFORM_HTTPS_URL}/users/${env.CONFORM_USER}/financialrecords?q=a%20b`;
const signedUrl = new URL(url);
if (process.argv[2] === 'wrong-host') signedUrl.hostname = 'localhost';
if (process.argv[2] === 'wrong-port') signedUrl.port = new URL(env.CONFORM_HTTP_URL ?? '').port;
const last = await send('GET', url, { token, signQuery: process.argv[2] !== 'wrong', signedUrl: signedUrl.href });
let mistake = '-';
try {
  mistake = JSON.parse(last.body).diagnostic?.mistake ?? '-';
} catch {
  // An accepted request's XML.
}
console.log(`last: ${last.status} diagnosed: ${mistake}`);
