// An OAuth 2 client of each grant for `conform check-client` tests (only node: modules). The client authenticates
// with HTTP Basic (RFC 6749 §2.3.1) and uses its tokens as Authorization: Bearer (RFC 6750 §2.1). Correct modes:
//   client-credentials   the client credentials grant (§4.4) over TLS, the token used
//   password             the password grant (§4.3, server variant oauth2-password-only) over TLS, the token used, two
//                        refreshes each with the refresh token the last answer issued (§6)
//   code                 the authorization code grant with PKCE (§4.1, RFC 7636 S256; variant oauth2-code-pkce-only):
//                        the owner approves with Basic, the code is exchanged once with its verifier, one refresh
// Each faulty mode makes one mistake, the rest done right:
//   password-http        the password grant sent over plain HTTP first (then over TLS)
//   refresh-reused       password, then a refresh with the refresh token the first refresh replaced
//   code-twice           code, then the same code exchanged a second time
//   secret-in-authorize  code, with client_secret in the authorization request's query
//   pkce-plain           code, with code_challenge_method=plain (the server refuses: no code)
//   no-verifier          code, exchanged without the code_verifier
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const env = process.env;
const mode = process.argv[2] ?? 'code';
const ca = readFileSync(env.CONFORM_CA_FILE ?? '');
const tokenUrl = new URL(env.CONFORM_OAUTH2_TOKEN_URL ?? '');
const clientAuth = `Basic ${Buffer.from(`${form(env.CONFORM_OAUTH2_CLIENT_ID)}:${form(env.CONFORM_OAUTH2_CLIENT_SECRET)}`).toString('base64')}`;
const ownerAuth = `Basic ${Buffer.from(`${env.CONFORM_USER}:${env.CONFORM_PASSWORD}`).toString('base64')}`;
const records = `/users/${env.CONFORM_USER}/financialrecords`;
const statuses = [];

/** application/x-www-form-urlencoded, as RFC 6749 Appendix B encodes the client id and secret for Basic. */
function form(value = '') {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** One request; resolves to its status, its headers and its body. */
function send(url, { method = 'GET', headers = {}, body = '' } = {}) {
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method, headers, ca, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        statuses.push(res.statusCode);
        resolve({ status: res.statusCode, headers: res.headers, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A token request (§3.2: POST, a form body), over TLS unless `url` says otherwise; resolves to the answer's JSON. */
async function tokenRequest(params, url = tokenUrl) {
  const res = await send(url, {
    method: 'POST',
    headers: { authorization: clientAuth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  try {
    return JSON.parse(res.body);
  } catch {
    return {};
  }
}

async function useToken(answer) {
  if (answer.access_token === undefined) return;
  await send(new URL(records, env.CONFORM_HTTPS_URL), { headers: { authorization: `Bearer ${answer.access_token}` } });
}

const base64url = (bytes) => Buffer.from(bytes).toString('base64url');

/** The authorization request (§4.1.1, RFC 7636 §4.3); resolves to the code and the verifier, or no code. */
async function authorize({ method = 'S256', secret = false } = {}) {
  const verifier = base64url(randomBytes(32));
  const challenge = method === 'S256' ? base64url(createHash('sha256').update(verifier).digest()) : verifier;
  const url = new URL(env.CONFORM_OAUTH2_AUTHORIZE_URL ?? '');
  const state = base64url(randomBytes(8));
  for (const [name, value] of [
    ['response_type', 'code'],
    ['client_id', env.CONFORM_OAUTH2_CLIENT_ID],
    ['redirect_uri', env.CONFORM_OAUTH2_REDIRECT_URI],
    ['state', state],
    ['code_challenge', challenge],
    ['code_challenge_method', method],
    ...(secret ? [['client_secret', env.CONFORM_OAUTH2_CLIENT_SECRET]] : []),
  ])
    url.searchParams.set(name, value ?? '');
  const res = await send(url, { headers: { authorization: ownerAuth } });
  const back = new URL(res.headers.location ?? '', 'https://client.invalid/');
  if (back.searchParams.get('state') !== state) return { verifier };
  return { code: back.searchParams.get('code') ?? undefined, verifier };
}

/** The code grant: authorize, exchange (twice, or without the verifier, where the mode says), use, refresh once. */
async function codeGrant() {
  const { code, verifier } = await authorize({
    method: mode === 'pkce-plain' ? 'plain' : 'S256',
    secret: mode === 'secret-in-authorize',
  });
  if (code === undefined) return;
  const exchange = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: env.CONFORM_OAUTH2_REDIRECT_URI ?? '',
    ...(mode === 'no-verifier' ? {} : { code_verifier: verifier }),
  };
  const answer = await tokenRequest(exchange);
  if (mode === 'code-twice') await tokenRequest(exchange);
  await useToken(answer);
  if (answer.refresh_token !== undefined)
    await useToken(await tokenRequest({ grant_type: 'refresh_token', refresh_token: answer.refresh_token }));
}

/** The password grant: over plain HTTP first where the mode says, then over TLS; used; refreshed twice. */
async function passwordGrant() {
  const params = { grant_type: 'password', username: env.CONFORM_USER, password: env.CONFORM_PASSWORD };
  if (mode === 'password-http') await tokenRequest(params, new URL(tokenUrl.pathname, env.CONFORM_HTTP_URL));
  const answer = await tokenRequest(params);
  await useToken(answer);
  const first = await tokenRequest({ grant_type: 'refresh_token', refresh_token: answer.refresh_token });
  const next = mode === 'refresh-reused' ? answer.refresh_token : first.refresh_token;
  await useToken(await tokenRequest({ grant_type: 'refresh_token', refresh_token: next }));
}

if (mode === 'client-credentials') await useToken(await tokenRequest({ grant_type: 'client_credentials' }));
else if (['password', 'password-http', 'refresh-reused'].includes(mode)) await passwordGrant();
else await codeGrant();
console.log(`oauth2 ${mode}: ${statuses.join(' ')}`);
