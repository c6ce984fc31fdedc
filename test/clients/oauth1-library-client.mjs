// A third-party OAuth 1.0a client for `conform check-client` tests: the `oauth-1.0a` npm library (a dev dependency)
// signs the three legs and a GET with reserved and non-ASCII characters in its query; node:https sends them.
// `oauth1-library-client.mjs PLAINTEXT` signs with PLAINTEXT (RFC 5849 §3.4.4, over TLS) instead of HMAC-SHA1.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import OAuth from 'oauth-1.0a';

const env = process.env;
const ca = readFileSync(env.CONFORM_CA_FILE ?? '');
const method = process.argv[2] ?? 'HMAC-SHA1';
const oauth = new OAuth({
  consumer: { key: env.CONFORM_OAUTH1_CONSUMER_KEY ?? '', secret: env.CONFORM_OAUTH1_CONSUMER_SECRET ?? '' },
  signature_method: method,
  ...(method === 'HMAC-SHA1'
    ? { hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64') }
    : {}),
});

/** Sends a request; resolves to its status and body. */
function send(method, url, headers) {
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

const signed = (method, url, token, data) => ({
  authorization: oauth.toHeader(oauth.authorize({ url, method, ...(data ? { data } : {}) }, token)).Authorization,
});
const form = (r, what) => {
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.body}`);
  return Object.fromEntries(new URLSearchParams(r.body));
};
const temporaryUrl = env.CONFORM_OAUTH1_REQUEST_TOKEN_URL ?? '';
const temporary = form(
  await send('POST', temporaryUrl, signed('POST', temporaryUrl, undefined, { oauth_callback: 'oob' })),
  'request token',
);
const basic = Buffer.from(`${env.CONFORM_USER}:${env.CONFORM_PASSWORD}`).toString('base64');
const approval = form(
  await send('GET', `${env.CONFORM_OAUTH1_AUTHORIZE_URL}?oauth_token=${encodeURIComponent(temporary.oauth_token)}`, {
    authorization: `Basic ${basic}`,
  }),
  'authorize',
);
const tokenUrl = env.CONFORM_OAUTH1_ACCESS_TOKEN_URL ?? '';
const tokenHeaders = signed(
  'POST',
  tokenUrl,
  { key: temporary.oauth_token, secret: temporary.oauth_token_secret },
  {
    oauth_verifier: approval.oauth_verifier,
  },
);
const tokens = form(await send('POST', tokenUrl, tokenHeaders), 'access token');
const token = { key: tokens.oauth_token, secret: tokens.oauth_token_secret };
const url = `${env.CONFORM_HTTPS_URL}/users/${env.CONFORM_USER}/financialrecords?q=${encodeURIComponent("a b!*'()ü")}`;
const last = await send('GET', url, signed('GET', url, token));
console.log(`library client${method === 'HMAC-SHA1' ? '' : ` (${method})`}: ${last.status}`);
