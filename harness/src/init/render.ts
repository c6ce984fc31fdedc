/**
 * The draft profile as YAML text: every learned key with, above it, the exchange it was learned from; every key
 * the probes could not settle commented out with why. Pure: a Draft in, text out.
 */
import { stringify } from 'yaml';
import type { Draft, DraftKey } from './draft.js';

/** Keys no probe settles, with an example value and why: commented out in every draft. */
const UNLEARNED: ReadonlyArray<DraftKey> = [
  {
    key: 'articles.optionalFields',
    value: ['summary'],
    how: 'which optional child elements the target keeps is not shown (§2): no article could be read back; name the ones it stores',
  },
  {
    key: 'articles.maxBodyBytes',
    value: 65536,
    how: 'finding the limit would mean sending ever larger bodies; declare your limit (§8: not shown)',
  },
  {
    key: 'articles.bounds',
    value: { priceScale: 2, priceMax: '99999.99', titleMaxLength: 50 },
    how: 'the values every store keeps are the default (shown); widen them to what your target stores exactly',
  },
  {
    key: 'auth.window',
    value: 600,
    how: "learning it would mean sending dates ever further from the target's clock; declare your window",
  },
  {
    key: 'auth.nonceScope',
    value: 'user',
    how: 'whether a nonce is spent for one user or for all is not probed (it spends nonces of both users); unset: not checked',
  },
  {
    key: 'auth.nonceMax',
    value: '9223372036854775807',
    how: 'the largest nonce the target accepts is not probed; the default is a signed 64-bit integer',
  },
  {
    key: 'auth.nonceLeadingZeros',
    value: true,
    how: 'whether 0123 and 123 are two nonces is not probed; unset, no generated nonce has a leading zero',
  },
  {
    key: 'auth.strictDate',
    value: true,
    how: 'whether every other Date form is refused is not probed; unset, only dates malformed under any reading are sent',
  },
  {
    key: 'auth.nonceMemoryWait',
    value: 3,
    how: 'opt-in: a scenario waits this long before replaying a nonce; unset, it is skipped',
  },
];

/** Where each key goes: its section, in the order a reader expects. */
const SECTIONS = ['target', 'users', 'articles', 'options', 'protected', 'auth'] as const;

export interface RenderOptions {
  /** The command that made the draft, for the header (credentials never in it). */
  command: string;
  date: string;
}

/** The draft as a commented YAML profile. */
export function renderDraft(draft: Draft, options: RenderOptions): string {
  const out: string[] = [
    '# yaml-language-server: $schema=node_modules/@conform-harness/conform/specs/schema/profile.v1.schema.json',
    `# Drafted by \`${options.command}\` on ${options.date}.`,
    '# Above each key: the exchange it was learned from. Commented out: what the probes could not settle, with why.',
    '# Credentials are read from the environment (${NAME}): the file holds none. Read it, then run',
    '#   conform run --profile <this file>',
  ];
  const keys = [...draft.keys, ...UNLEARNED.filter((u) => !draft.keys.some((k) => k.key === u.key))].map((k) =>
    k.key === 'auth.oauth1.approval' ? k : { ...k, off: k.off ?? UNLEARNED.includes(k) },
  );
  const inSection = (s: string) => keys.filter((k) => k.key.split(/[.[]/)[0] === s);
  for (const section of SECTIONS) {
    out.push('');
    if (section === 'target') {
      out.push('target:');
      for (const b of draft.bases) {
        out.push(...comment(`${b.answered ? 'answered' : 'did not answer'}: ${b.how}`, 2));
        out.push(`  ${b.answered ? '' : '# '}${b.url.startsWith('https:') ? 'https' : 'http'}: ${value(b.url)}`);
      }
      for (const k of inSection('target')) out.push(...leaf(k, 2, k.key.slice('target.'.length)));
      continue;
    }
    if (section === 'users') {
      out.push(draft.users.length === 0 ? 'users: []' : 'users:');
      if (draft.users.length === 0)
        out.push(...comment('no --user given: give one or two, with their credentials in the environment', 2));
      for (const u of draft.users) {
        out.push(`  - name: ${value(u.name)}`);
        if (u.password) out.push(`    password: ${value(u.password)}`);
        if (u.secret) out.push(`    secret: ${value(u.secret)}`);
      }
      for (const k of inSection('users')) out.push(...comment(k.how, 2));
      continue;
    }
    if (section === 'protected') {
      const k = inSection('protected')[0];
      if (k) out.push(...comment(k.how, 0), `protected: ${value(k.value)}`);
      else
        out.push(
          ...comment(
            "the spec's own paths (§4.4) are the default; whether a user's records are the owner's only was not probed (give two users)",
            0,
          ),
          `# protected: ${value([{ path: '/' }, { path: '/users/{user}/financialrecords', ownerOnly: true }])}`,
        );
      continue;
    }
    const at = out.length;
    out.push(`${section}:`);
    if (section === 'articles')
      out.push(
        ...comment("the spec's paths (§4.1, §4.2); change them if yours differ", 2),
        '  collection: /articles',
        '  item: /articles/{id}',
      );
    for (const k of inSection(section).filter((x) => x.key.split('.').length === 2))
      out.push(...leaf(k, 2, k.key.slice(section.length + 1)));
    if (section === 'auth') out.push(...oauth(draft, keys));
    // A section with nothing but comments is an empty map, not null.
    if (out.slice(at + 1).every((l) => /^\s*#/.test(l))) out[at] = `${section}: {}`;
  }
  return `${out.join('\n')}\n`;
}

function oauth(draft: Draft, keys: DraftKey[]): string[] {
  const out: string[] = [];
  const sub = (name: 'oauth2' | 'oauth1') => keys.filter((k) => k.key.startsWith(`auth.${name}.`));
  if (draft.oauth2) {
    out.push('  oauth2:');
    for (const [k, v] of Object.entries(draft.oauth2)) out.push(`    ${k}: ${value(v)}`);
    out.push(
      ...comment(
        'RFC 6749 §2.3.1: Basic is the method every server supports; add form if yours takes the body parameters',
        4,
      ),
      '    clientAuth: [basic]',
    );
    for (const k of sub('oauth2')) out.push(...leaf(k, 4, k.key.slice('auth.oauth2.'.length)));
    out.push(...stubs(OAUTH2_STUBS, sub('oauth2'), 'auth.oauth2.'));
  } else
    out.push(
      ...comment(
        'OAuth 2: not probed. Give `--oauth2 TOKEN_PATH` with CONFORM_OAUTH2_CLIENT_ID and CONFORM_OAUTH2_CLIENT_SECRET',
        2,
      ),
      '  # oauth2: { tokenEndpoint: /oauth2/token, clientId: ${CONFORM_OAUTH2_CLIENT_ID}, clientSecret: ${CONFORM_OAUTH2_CLIENT_SECRET} }',
    );
  if (draft.oauth1) {
    out.push('  oauth1:');
    for (const [k, v] of Object.entries(draft.oauth1)) out.push(`    ${k}: ${value(v)}`);
    for (const k of sub('oauth1')) out.push(...leaf(k, 4, k.key.slice('auth.oauth1.'.length)));
    out.push(...stubs(OAUTH1_STUBS, sub('oauth1'), 'auth.oauth1.'));
  } else
    out.push(
      ...comment(
        'OAuth 1: not probed. Give `--oauth1 TEMPORARY,AUTHORIZE,TOKEN` (three paths) with CONFORM_OAUTH1_CONSUMER_KEY and CONFORM_OAUTH1_CONSUMER_SECRET',
        2,
      ),
    );
  return out;
}

/** OAuth keys full coverage needs and no probe can settle: each a question to answer from the service's docs. */
const OAUTH2_STUBS: ReadonlyArray<[string, string, string]> = [
  [
    'otherClient',
    '{ clientId: ${CONFORM_OAUTH2_OTHER_CLIENT_ID}, clientSecret: ${CONFORM_OAUTH2_OTHER_CLIENT_SECRET}, user: bob }',
    "is there a second client, acting for another user? Its tokens must not open the first user's records",
  ],
  ['revokeEndpoint', '/oauth2/revoke', 'does the service revoke tokens (RFC 7009)? Where?'],
];
const OAUTH1_STUBS: ReadonlyArray<[string, string, string]> = [
  [
    'otherConsumer',
    '{ consumerKey: ${CONFORM_OAUTH1_OTHER_CONSUMER_KEY}, consumerSecret: ${CONFORM_OAUTH1_OTHER_CONSUMER_SECRET} }',
    "is there a second consumer? Its secret must not verify the first consumer's requests",
  ],
  ['tokensBoundToConsumer', 'true', 'do token credentials work only with the consumer they were issued to?'],
  [
    'placements',
    '[header, query, form]',
    'where may OAuth 1 parameters travel: the Authorization header, the query, a form body?',
  ],
];

/** The stubs a draft has not already set, commented out with their question. */
function stubs(list: ReadonlyArray<[string, string, string]>, set: DraftKey[], prefix: string): string[] {
  return list
    .filter(([name]) => !set.some((k) => k.key === `${prefix}${name}`))
    .flatMap(([name, example, question]) => [...comment(`${question} (not probed)`, 4), `    # ${name}: ${example}`]);
}

function leaf(k: DraftKey, indent: number, name: string): string[] {
  const pad = ' '.repeat(indent);
  const text = k.key === 'options.implemented' && Array.isArray(k.value) && k.value.length === 0 ? false : k.value;
  if (text === undefined) return comment(`${name}: ${k.how}`, indent);
  return [...comment(k.how, indent), `${pad}${k.off ? '# ' : ''}${name}: ${value(text)}`];
}

function value(v: unknown): string {
  return stringify(v, { collectionStyle: 'flow', lineWidth: 0 }).trim();
}

/** `text` as comment lines of at most 118 characters at `indent`. */
function comment(text: string, indent: number): string[] {
  const prefix = `${' '.repeat(indent)}# `;
  const width = Math.max(40, 118 - prefix.length);
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/)) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(prefix + current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) lines.push(prefix + current);
  return lines;
}
