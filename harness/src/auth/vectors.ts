/**
 * Self-test of the harness's signers against the known answers in specs/vectors/auth.yaml. A harness whose own
 * signer disagrees with the vectors would judge every target wrongly, so `conform run` refuses to start then.
 */
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ConformError } from '../errors.js';
import { parseYamlSource } from '../suite/yaml-source.js';
import { oauth1BaseString, oauth1SignWith, type OAuth1Method } from '../oauth/signature.js';
import { basicHeader, bodyHash, hmacDigest, hmacHeader, signedMessage } from './signers.js';

const Signed = z.object({
  name: z.string(),
  user: z.string(),
  secret: z.string(),
  method: z.string(),
  path: z.string(),
  message: z.string(),
  digest: z.string(),
  header: z.string(),
});
export const VectorsSchema = z.object({
  version: z.literal(1),
  hmacSha256: z.array(z.object({ name: z.string(), keyHex: z.string(), dataHex: z.string(), macHex: z.string() })),
  basic: z.array(z.object({ name: z.string(), user: z.string(), password: z.string(), header: z.string() })),
  hmacSimple: z.array(Signed),
  hmacNonce: z.array(Signed.extend({ date: z.string(), nonce: z.string(), dateText: z.string() })),
  hmacBodyHash: z.array(
    Signed.extend({
      date: z.string().optional(),
      nonce: z.string().optional(),
      body: z.string(),
      bodyHash: z.string(),
    }),
  ),
});
export type AuthVectors = z.infer<typeof VectorsSchema>;

export const OAuthVectorsSchema = z.object({
  version: z.literal(1),
  oauth1: z.array(
    z.object({
      name: z.string(),
      method: z.string(),
      url: z.string(),
      body: z.string(),
      oauth: z.array(z.tuple([z.string(), z.string()])),
      consumerSecret: z.string(),
      tokenSecret: z.string(),
      baseString: z.string(),
      signature: z.string(),
    }),
  ),
});
export type OAuthVectors = z.infer<typeof OAuthVectorsSchema>;

/** A vectors file's data: parsed as every YAML file of the harness is (the bundled ones from the build's cache). */
function yamlData(file: string, text: string): unknown {
  const source = parseYamlSource(file, text);
  const issue = source.syntaxIssues[0];
  if (issue) throw new ConformError('CONFORM_SELF_TEST', `${file}:${issue.line}:${issue.column}: ${issue.message}`);
  return source.value;
}

/** Loads the OAuth known-answer vectors (`specs/vectors/oauth.yaml`) the OAuth 1 signer must reproduce. */
export async function loadOAuthVectors(file: string): Promise<OAuthVectors> {
  return OAuthVectorsSchema.parse(yamlData(file, await readFile(file, 'utf8')));
}

/** Every disagreement of the OAuth 1.0a signer with the vectors (empty when all agree). */
export function checkOAuthSigner(v: OAuthVectors): string[] {
  const out: string[] = [];
  for (const c of v.oauth1) {
    const base = oauth1BaseString(c.method, c.url, c.body, c.oauth);
    if (base !== c.baseString) out.push(`OAuth 1 base string: ${c.name}: got ${base}, expected ${c.baseString}`);
    const method = (c.oauth.find(([k]) => k === 'oauth_signature_method')?.[1] ?? 'HMAC-SHA1') as OAuth1Method;
    const sig = oauth1SignWith(method, c.baseString, c.consumerSecret, c.tokenSecret);
    if (sig !== c.signature) out.push(`OAuth 1 signature: ${c.name}: got ${sig}, expected ${c.signature}`);
  }
  return out;
}

/** Loads the known-answer vectors (`specs/vectors/auth.yaml`) the signers must reproduce before a run sends anything. */
export async function loadAuthVectors(file: string): Promise<AuthVectors> {
  return VectorsSchema.parse(yamlData(file, await readFile(file, 'utf8')));
}

/** Every disagreement between the harness's signers and the vectors, as sentences (empty when all agree). */
export function checkSigners(v: AuthVectors): string[] {
  const out: string[] = [];
  const expectEq = (what: string, got: string, want: string) => {
    if (got !== want) out.push(`${what}: got ${got}, expected ${want}`);
  };
  for (const c of v.hmacSha256) {
    expectEq(
      c.name,
      createHmac('sha256', Buffer.from(c.keyHex, 'hex')).update(Buffer.from(c.dataHex, 'hex')).digest('hex'),
      c.macHex,
    );
  }
  for (const c of v.basic) expectEq(`Basic: ${c.name}`, basicHeader(c.user, c.password), c.header);
  for (const c of v.hmacSimple) {
    const message = signedMessage({ method: c.method, path: c.path });
    expectEq(`hmac simple message: ${c.name}`, message, c.message);
    expectEq(`hmac simple header: ${c.name}`, hmacHeader(c.user, hmacDigest(c.secret, message)), c.header);
  }
  for (const c of v.hmacNonce) {
    const message = signedMessage({ method: c.method, path: c.path, date: c.date, nonce: c.nonce });
    expectEq(`hmac nonce message: ${c.name}`, message, c.message);
    expectEq(`hmac nonce header: ${c.name}`, hmacHeader(c.user, hmacDigest(c.secret, message), c.nonce), c.header);
  }
  for (const c of v.hmacBodyHash) {
    expectEq(`body hash: ${c.name}`, bodyHash(c.body), c.bodyHash);
    const message = signedMessage({
      method: c.method,
      path: c.path,
      ...(c.nonce !== undefined ? { date: c.date ?? '', nonce: c.nonce } : {}),
      bodyHash: c.bodyHash,
    });
    expectEq(`body hash message: ${c.name}`, message, c.message);
    expectEq(`body hash header: ${c.name}`, hmacHeader(c.user, hmacDigest(c.secret, message), c.nonce), c.header);
  }
  return out;
}

/**
 * Throws `CONFORM_SELF_TEST` when the signers disagree with the vectors: `file` (specs/vectors/auth.yaml) and the
 * OAuth vectors beside it (oauth.yaml), when present.
 */
export async function assertSignersAgree(file: string): Promise<void> {
  const oauthFile = path.join(path.dirname(file), 'oauth.yaml');
  const problems = [
    ...checkSigners(await loadAuthVectors(file)),
    ...(existsSync(oauthFile) ? checkOAuthSigner(await loadOAuthVectors(oauthFile)) : []),
  ];
  if (problems.length > 0) {
    throw new ConformError(
      'CONFORM_SELF_TEST',
      `the harness's own signers fail the known-answer vectors in ${file}; refusing to judge any target:\n  ${problems.join('\n  ')}`,
    );
  }
}
