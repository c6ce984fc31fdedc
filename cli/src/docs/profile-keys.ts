/**
 * docs/profile-keys.md, the key tables: every key of a profile with its dotted path, type, default and description,
 * read from the profile's generated JSON Schema (specs/schema/profile.v1.schema.json), so the page says what the
 * validating zod schema says. Defaults come from the descriptions' "Default …" / "Unset: …" sentences and are
 * checked against `resolveProfile`, the code that fills them.
 */
import { resolveProfile, type ProfileData } from '../../../harness/src/profile/schema.js';
import { cell, code } from './markdown.js';

/** The parts of a JSON Schema (draft 2020-12, as zod writes it) the page reads. */
export interface JsonSchema {
  /** One type, or several (a nullable key: `["string", "null"]`). */
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  minLength?: number;
  additionalProperties?: boolean | JsonSchema;
}

/** One row of the page. */
export interface ProfileKey {
  /** Dotted path; `[]` marks the elements of a list (`users[].name`). */
  path: string;
  type: string;
  required: boolean;
  /** The default in words, from the description ("unset: …" when the key's absence has a meaning of its own). */
  default?: string;
  description: string;
  /** Set when the description's default disagrees with the code's: what `resolveProfile` fills in. */
  codeDefault?: string;
}

/**
 * What the schema leaves undescribed (keys whose meaning is their name, or containers), in the README's words.
 * A description in the schema always wins; an entry here that the schema has come to describe is ignored.
 */
const UNDESCRIBED: Record<string, { description: string; default?: string }> = {
  $schema: { description: 'The JSON Schema of the file, for editors; conform does not read it.' },
  target: { description: 'Where the target listens.' },
  users: {
    description: 'The users the harness authenticates as: two or more, for cross-user checks.',
    default: 'none',
  },
  'users[].name': { description: 'User name.' },
  articles: { description: 'The article resources (§2, §4).' },
  options: { description: 'OPTIONS (§4.3).' },
  protected: {
    description: 'Resources that need authentication.',
    default: '`/` and `/users/{user}/financialrecords` (§4.4)',
  },
  'protected[].path': { description: 'Path template; `{user}` stands for a user name.' },
  auth: { description: 'Authentication (§5): the schemes the target supports and how it applies them.' },
  'auth.oauth2': {
    description: 'OAuth 2.0: the clients, their grants, and bearer tokens (docs/oauth.md). Unset: no OAuth 2.',
  },
  'auth.oauth2.clientId': { description: 'Client id.' },
  'auth.oauth2.clientSecret': { description: 'Client secret.' },
  'auth.oauth2.otherClient.clientId': { description: "The second client's id." },
  'auth.oauth2.otherClient.clientSecret': { description: "The second client's secret." },
  'auth.oauth2.otherClient.user': { description: "The user the second client acts for (not the first client's)." },
  'auth.oauth2.otherClient.grants': { description: 'The grants the second client takes. Unset: learned.' },
  'auth.oauth2.clients[].clientId': { description: 'Client id.' },
  'auth.oauth2.clients[].clientSecret': { description: 'Client secret.' },
  'auth.oauth1.consumerKey': { description: 'Consumer key.' },
  'auth.oauth1.consumerSecret': { description: 'Consumer secret.' },
  'auth.oauth1.otherConsumer.consumerKey': { description: "The second consumer's key." },
  'auth.oauth1.otherConsumer.consumerSecret': { description: "The second consumer's secret." },
};

/** Defaults the descriptions do not state, in the README's words (checked against the code like the others). */
const UNSTATED_DEFAULTS: Record<string, string> = {
  'target.insecure': 'false',
  'articles.aliases': 'none',
  'articles.optionalFields': 'none',
  'protected[].ownerOnly': 'unset: not checked',
  'auth.oauth1': 'unset: no OAuth 1',
};

/** Every key of the schema, depth first in the schema's order. */
export function profileKeys(schema: JsonSchema): ProfileKey[] {
  const code = codeDefaults();
  const keys: ProfileKey[] = [];
  const walk = (object: JsonSchema, prefix: string) => {
    for (const [name, s] of Object.entries(object.properties ?? {})) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      const { description, defaultText } = splitDefault(s.description ?? UNDESCRIBED[path]?.description ?? '');
      const stated =
        defaultText ??
        (s.description === undefined ? UNDESCRIBED[path]?.default : undefined) ??
        UNSTATED_DEFAULTS[path];
      const key: ProfileKey = {
        path,
        type: typeOf(s),
        required: object.required?.includes(name) ?? false,
        description,
      };
      if (stated !== undefined) key.default = stated;
      const inCode = code.get(path);
      if (inCode !== undefined && stated !== undefined && !agrees(stated, inCode)) key.codeDefault = inCode;
      keys.push(key);
      if (s.properties) walk(s, path);
      else if (s.items?.properties) walk(s.items, `${path}[]`);
    }
  };
  walk(schema, '');
  return keys;
}

/** The description without its default sentence, and that sentence's value ("Default X." → "X", "Unset: Y." → "unset: Y"). */
function splitDefault(text: string): { description: string; defaultText?: string } {
  const sentences = text.split(/(?<=\.)\s+(?=[A-Z])/);
  const i = sentences.findIndex((s) => /^(Default\b|Unset:)/.test(s));
  if (i < 0) return { description: text };
  const sentence = (sentences[i] ?? '').replace(/\.$/, '');
  const value = /^Unset:/.test(sentence) ? sentence.replace(/^Unset/, 'unset') : sentence.replace(/^Default:?\s*/, '');
  return { description: [...sentences.slice(0, i), ...sentences.slice(i + 1)].join(' '), defaultText: value };
}

/** The defaults `resolveProfile` fills in for an empty profile (and for empty OAuth blocks), as text, by dotted path. */
function codeDefaults(): Map<string, string> {
  const data: ProfileData = {
    auth: {
      oauth2: { tokenEndpoint: '/t', clientId: 'c', clientSecret: 's' },
      oauth1: {
        consumerKey: 'k',
        consumerSecret: 's',
        temporaryEndpoint: '/t',
        authorizeEndpoint: '/a',
        tokenEndpoint: '/t',
      },
    },
  };
  const given = new Set([
    'auth.oauth2.tokenEndpoint',
    'auth.oauth2.clientId',
    'auth.oauth2.clientSecret',
    'auth.oauth1.consumerKey',
    'auth.oauth1.consumerSecret',
    'auth.oauth1.temporaryEndpoint',
    'auth.oauth1.authorizeEndpoint',
    'auth.oauth1.tokenEndpoint',
  ]);
  const out = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (given.has(path)) return;
    if (Array.isArray(value)) {
      if (value.every((v) => typeof v !== 'object'))
        out.set(path, value.length === 0 ? 'none' : `[${value.join(', ')}]`);
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, path === '' ? k : `${path}.${k}`);
    } else if (value !== undefined) out.set(path, String(value));
  };
  const { declared: _declared, file: _file, ...resolved } = resolveProfile(data, 'profile.yaml');
  walk(resolved, '');
  return out;
}

/** Whether a default in words starts with the code's value (quotes around text allowed). */
function agrees(stated: string, inCode: string): boolean {
  const s = stated.replace(/^"([^"]*)"/, '$1');
  return s === inCode || [' ', ':', ';', ','].some((c) => s.startsWith(`${inCode}${c}`));
}

const URL_PATTERN = '^https?:\\/\\/[^\\s]+$';

function typeOf(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  if (Array.isArray(s.type)) return s.type.map((type) => typeOf({ ...s, type })).join(' or ');
  if (s.enum) return `one of ${s.enum.map((v) => code(String(v))).join(', ')}`;
  switch (s.type) {
    case 'string':
      if (s.format === 'uri' || s.pattern === URL_PATTERN) return 'URL';
      if (s.pattern === '^\\/') return 'path (starts with `/`)';
      if (s.pattern !== undefined) return `text matching ${code(s.pattern)}`;
      return s.minLength ? 'non-empty text' : 'text';
    case 'boolean':
      return 'boolean';
    case 'null':
      return '`null`';
    case 'number':
    case 'integer':
      return `${s.type}${range(s)}`;
    case 'array':
      return `list of ${s.items ? plural(typeOf(s.items)) : 'values'}${s.minItems ? ` (at least ${s.minItems})` : ''}`;
    case 'object':
      if (s.properties) return 'object';
      if (typeof s.additionalProperties === 'object') return `map of text to ${typeOf(s.additionalProperties)}`;
      return 'object';
    default:
      return 'any';
  }
}

const WORDS = new Set(['none', 'any', 'the', 'unset', 'not', 'all']);

/** A default in words with its leading value as code: `[200, 204]` (RFC 9110 §9.3.4), `false`: only checked when declared. */
function defaultCell(text: string): string {
  if (text.includes('`')) return text;
  if (/^https?:\/\//.test(text)) return code(text);
  const m = /^(\[[^\]]*\]|"[^"]*"|[^\s;,()]+?)(:?(?:[\s;,(].*)?)$/s.exec(text);
  const token = m?.[1] ?? '';
  if (!m || WORDS.has(token.toLowerCase())) return text;
  return `${code(token)}${m[2] ?? ''}`;
}

function range(s: JsonSchema): string {
  const max = s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  if (s.minimum !== undefined && max !== undefined) return ` ${s.minimum}–${max}`;
  const parts = [
    s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : s.minimum !== undefined ? `≥ ${s.minimum}` : '',
    max !== undefined ? `≤ ${max}` : '',
  ];
  const text = parts.filter((p) => p !== '').join(', ');
  return text === '' ? '' : ` ${text}`;
}

function plural(type: string): string {
  if (type === 'object') return 'objects';
  if (type.startsWith('one of ')) return type.replace(/^one of /, '');
  return type.replace(/^(text|URL|path|integer|number|boolean)\b/, (w) => (w === 'text' ? 'texts' : `${w}s`));
}

/**
 * The keys docs/open-points.md's "When the profile is silent" table lists, with whether the harness learns them:
 * the first cell names keys in code spans, the second starts with "Learned" for a learned one.
 */
export function silentKeys(openPoints: string): Map<string, 'learned' | 'described'> {
  const out = new Map<string, 'learned' | 'described'>();
  const section = openPoints.split(/^## /m).find((s) => s.startsWith('When the profile is silent')) ?? '';
  for (const line of section.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.length < 4 || cells[1] === 'Key' || /^-+$/.test(cells[1] ?? '')) continue;
    for (const m of (cells[1] ?? '').matchAll(/`([^`]+)`/g))
      out.set(m[1] ?? '', /^Learned\b/.test(cells[2] ?? '') ? 'learned' : 'described');
  }
  return out;
}

const SILENT = 'open-points.md#when-the-profile-is-silent';

/**
 * The key tables of docs/profile-keys.md: one section per top-level key. `openPoints` (docs/open-points.md) adds,
 * for the keys its "When the profile is silent" table lists, a link to what happens when they are left out.
 */
export function renderProfileKeys(schema: JsonSchema, openPoints = ''): string {
  const keys = profileKeys(schema);
  const silent = silentKeys(openPoints);
  const out: string[] = [];
  const disagreements: ProfileKey[] = [];
  for (const top of keys.filter((k) => !k.path.includes('.') && !k.path.includes('['))) {
    out.push(`### ${code(top.path)}`, '', '| key | type | default | description |', '|---|---|---|---|');
    for (const k of keys.filter(
      (k) => k.path === top.path || k.path.startsWith(`${top.path}.`) || k.path.startsWith(`${top.path}[]`),
    )) {
      const type = k.required ? `${k.type}, required` : k.type;
      let dflt =
        k.codeDefault !== undefined
          ? `${code(k.codeDefault)} (see below)`
          : k.default !== undefined
            ? defaultCell(k.default)
            : '—';
      const when = silent.get(k.path);
      if (when === 'learned')
        dflt = `learned from the target when unset ([how](${SILENT}))${dflt === '—' || dflt.startsWith('unset') ? '' : `; the schema's default: ${dflt}`}`;
      else if (when === 'described') dflt = `${dflt} ([when unset](${SILENT}))`;
      out.push(`| ${code(k.path)} | ${cell(type)} | ${dflt.replace(/\|/g, '\\|')} | ${cell(k.description)} |`);
      if (k.codeDefault !== undefined) disagreements.push(k);
    }
    out.push('');
  }
  if (disagreements.length > 0) {
    out.push(
      "Where the schema's description (what an editor shows) states another default than the code that applies it, the table gives the code's:",
      '',
    );
    for (const k of disagreements)
      out.push(
        `- ${code(k.path)}: the description says ${code(k.default ?? '')}; \`resolveProfile\` fills in ${code(k.codeDefault ?? '')}.`,
      );
    out.push('');
  }
  return out.join('\n');
}
