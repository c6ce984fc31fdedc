/**
 * The scenario template language: `{{ expr }}` inside strings.
 *
 *   expr    := operand ( '|' filter ( ':' operand ( ',' operand )* )? )*
 *   operand := path | 'single-quoted' | "double-quoted" | number
 *   path    := name ( '.' ( name | index ) )*
 *
 * A string that is exactly one `{{ expr }}` evaluates to the raw value (an object, a list, a number); otherwise
 * the parts are stringified and joined. Templates are compiled when scenarios load, so syntax errors and unknown
 * filters are reported with file:line:col before anything is sent.
 */
import { applyMutation, type Mutation } from '../auth/mutations.js';
import { ConformError } from '../errors.js';
import { percentEncode } from '../http/percent.js';

export type Operand = { kind: 'ref'; path: string[] } | { kind: 'lit'; value: string | number };
export interface FilterCall {
  name: string;
  args: Operand[];
}
export interface Expr {
  operand: Operand;
  filters: FilterCall[];
}
export type TemplatePart = { kind: 'text'; text: string } | { kind: 'expr'; expr: Expr };
export interface CompiledTemplate {
  source: string;
  parts: TemplatePart[];
  whole: boolean;
}

export type Scope = Readonly<Record<string, unknown>>;
export type FilterFn = (input: unknown, args: unknown[], scope: Scope) => unknown;

const TOKEN =
  /\s*(?:(\|)|(:)|(,)|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)(?![\w.])|([A-Za-z_$][\w$-]*(?:\.(?:[A-Za-z_$][\w$-]*|\d+))*))/y;

function parseExpr(src: string): Expr {
  const tokens: Array<{ t: 'pipe' | 'colon' | 'comma' | 'lit' | 'ref'; v?: string | number }> = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m) throw new ConformError('CONFORM_TEMPLATE', `cannot parse "${src.slice(pos).trim()}" in {{${src}}}`);
    pos = TOKEN.lastIndex;
    if (m[1]) tokens.push({ t: 'pipe' });
    else if (m[2]) tokens.push({ t: 'colon' });
    else if (m[3]) tokens.push({ t: 'comma' });
    else if (m[4] !== undefined) tokens.push({ t: 'lit', v: m[4].replace(/\\(.)/g, '$1') });
    else if (m[5] !== undefined) tokens.push({ t: 'lit', v: m[5].replace(/\\(.)/g, '$1') });
    else if (m[6] !== undefined) tokens.push({ t: 'lit', v: Number(m[6]) });
    else if (m[7] !== undefined) tokens.push({ t: 'ref', v: m[7] });
  }
  let i = 0;
  const operand = (): Operand => {
    const tok = tokens[i++];
    if (tok?.t === 'lit') return { kind: 'lit', value: tok.v as string | number };
    if (tok?.t === 'ref') return { kind: 'ref', path: String(tok.v).split('.') };
    throw new ConformError('CONFORM_TEMPLATE', `expected a value in {{${src}}}`);
  };
  const expr: Expr = { operand: operand(), filters: [] };
  while (i < tokens.length) {
    if (tokens[i]?.t !== 'pipe') throw new ConformError('CONFORM_TEMPLATE', `expected "|" in {{${src}}}`);
    i++;
    const name = tokens[i++];
    if (name?.t !== 'ref' || String(name.v).includes('.'))
      throw new ConformError('CONFORM_TEMPLATE', `expected a filter name after "|" in {{${src}}}`);
    const call: FilterCall = { name: String(name.v), args: [] };
    if (tokens[i]?.t === 'colon') {
      i++;
      call.args.push(operand());
      while (tokens[i]?.t === 'comma') {
        i++;
        call.args.push(operand());
      }
    }
    expr.filters.push(call);
  }
  return expr;
}

/** Compiles a template string; throws `CONFORM_TEMPLATE` on a syntax error or an unknown filter. */
export function compileTemplate(
  source: string,
  filters: Readonly<Record<string, FilterFn>> = FILTERS,
): CompiledTemplate {
  const parts: TemplatePart[] = [];
  let rest = source;
  while (rest.length > 0) {
    const open = rest.indexOf('{{');
    if (open < 0) {
      parts.push({ kind: 'text', text: rest });
      break;
    }
    if (open > 0) parts.push({ kind: 'text', text: rest.slice(0, open) });
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) throw new ConformError('CONFORM_TEMPLATE', `unclosed "{{" in "${source}"`);
    const expr = parseExpr(rest.slice(open + 2, close));
    for (const f of expr.filters) {
      if (!Object.hasOwn(filters, f.name)) {
        throw new ConformError(
          'CONFORM_TEMPLATE',
          `unknown filter "${f.name}" (known: ${Object.keys(filters).join(', ')})`,
        );
      }
    }
    parts.push({ kind: 'expr', expr });
    rest = rest.slice(close + 2);
  }
  return { source, parts, whole: parts.length === 1 && parts[0]?.kind === 'expr' };
}

/** Every variable name a template reads (the first segment of each path). */
export function referencedNames(t: CompiledTemplate): string[] {
  const names: string[] = [];
  const visit = (o: Operand) => {
    if (o.kind === 'ref' && o.path[0] !== undefined) names.push(o.path[0]);
  };
  for (const p of t.parts) {
    if (p.kind !== 'expr') continue;
    visit(p.expr.operand);
    for (const f of p.expr.filters) f.args.forEach(visit);
  }
  return names;
}

function resolveOperand(o: Operand, scope: Scope): unknown {
  if (o.kind === 'lit') return o.value;
  let value: unknown = scope;
  for (const seg of o.path) {
    if (value === null || value === undefined || typeof value !== 'object' || !Object.hasOwn(value, seg)) {
      throw new ConformError('CONFORM_TEMPLATE', `"${o.path.join('.')}" is not defined`);
    }
    value = (value as Record<string, unknown>)[seg];
  }
  return value;
}

function evalExpr(expr: Expr, scope: Scope, filters: Readonly<Record<string, FilterFn>>): unknown {
  let value =
    expr.operand.kind === 'ref' && expr.filters.some((f) => f.name === 'default')
      ? tryResolve(expr.operand, scope)
      : resolveOperand(expr.operand, scope);
  for (const f of expr.filters) {
    const fn = filters[f.name];
    if (!fn) throw new ConformError('CONFORM_TEMPLATE', `unknown filter "${f.name}"`);
    value = fn(
      value,
      f.args.map((a) => resolveOperand(a, scope)),
      scope,
    );
  }
  return value;
}

function tryResolve(o: Operand, scope: Scope): unknown {
  try {
    return resolveOperand(o, scope);
  } catch {
    return undefined;
  }
}

/** Renders a compiled template against a scope. */
export function renderTemplate(
  t: CompiledTemplate,
  scope: Scope,
  filters: Readonly<Record<string, FilterFn>> = FILTERS,
): unknown {
  if (t.whole) return evalExpr((t.parts[0] as { expr: Expr }).expr, scope, filters);
  // A loop, not `parts.map(...).join('')`: no array between, and none whose map changes once TurboFan inlines `map`
  // (a packed array in the interpreter, a holey one inlined: the change deoptimized the callers).
  let out = '';
  for (let i = 0; i < t.parts.length; i++) {
    const p = t.parts[i]!;
    out += p.kind === 'text' ? p.text : stringify(evalExpr(p.expr, scope, filters));
  }
  return out;
}

export function stringify(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return '';
  return JSON.stringify(v);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The spec's Date text (`22 Nov 2026 10:00:00`, UTC) for epoch seconds. */
function formatSpecDateUtc(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Epoch seconds as a well-formed date of another shape than the spec's (see `OTHER_DATE_SHAPES`), UTC. */
function formatOtherDate(seconds: number, shape: string): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  const [day, month, year] = [two(d.getUTCDate()), MONTHS[d.getUTCMonth()]!, d.getUTCFullYear()];
  switch (shape) {
    case 'imf':
      return `${DAYS[d.getUTCDay()]}, ${day} ${month} ${year} ${time} GMT`;
    case 'rfc850':
      return `${LONG_DAYS[d.getUTCDay()]}, ${day}-${month}-${two(year % 100)} ${time} GMT`;
    case 'asctime':
      return `${DAYS[d.getUTCDay()]} ${month} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${year}`;
    case 'iso':
      return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
    case 'no-seconds':
      return `${day} ${month} ${year} ${time.slice(0, 5)}`;
    case 'lowercase-month':
      return `${day} ${month.toLowerCase()} ${year} ${time}`;
    case 'dashes':
      return `${day}-${month}-${year} ${time}`;
    case 'epoch':
      return String(Math.floor(seconds));
    default:
      throw new ConformError('CONFORM_TEMPLATE', `dateShape: unknown shape "${shape}"`);
  }
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const norm = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);

/** Fills the `{placeholder}`s of a path template with one value, percent-encoded as a path segment. */
export function fillPathTemplate(template: string, value: unknown): string {
  return template.replace(/\{[^}]*\}/g, () => percentEncode(stringify(value)));
}

/** Truthiness as `when:` reads it: not false, 0, "", "false", null, undefined or an empty list. */
export function truthyValue(v: unknown): boolean {
  return Array.isArray(v) ? v.length > 0 : Boolean(v) && v !== 'false';
}

/** The built-in filters. `item` reads the profile in scope (`profile.articles.item`). */
export const FILTERS: Readonly<Record<string, FilterFn>> = {
  fill: (input, [value]) => fillPathTemplate(stringify(input), value),
  item: (input, _args, scope) => {
    const profile = scope['profile'] as { articles?: { item?: string } } | undefined;
    return fillPathTemplate(profile?.articles?.item ?? '/articles/{id}', input);
  },
  default: (input, [fallback]) => (input === undefined || input === null ? fallback : input),
  without: (input, args) => {
    const drop = new Set(args.flatMap(asList).map(norm));
    return asList(input).filter((x) => !drop.has(norm(x)));
  },
  not: (input) => !truthyValue(input),
  upper: (input) => stringify(input).toUpperCase(),
  lower: (input) => stringify(input).toLowerCase(),
  json: (input) => JSON.stringify(input),
  at: (input, [index]) => asList(input)[Number(index)],
  join: (input, [sep]) =>
    asList(input)
      .map(stringify)
      .join(sep === undefined ? ',' : stringify(sep)),
  only: (input, args) => {
    const keep = new Set(args.flatMap(asList).map(norm));
    return asList(input).filter((x) => keep.has(norm(x)));
  },
  range: (input) => Array.from({ length: Math.max(0, Math.min(1000, Number(input) || 0)) }, (_, i) => i),
  has: (input, [key]) =>
    typeof input === 'object' &&
    input !== null &&
    Object.hasOwn(input, stringify(key)) &&
    (input as Record<string, unknown>)[stringify(key)] !== undefined,
  between: (input, [min, max]) => Number(input) >= Number(min) && Number(input) <= Number(max),
  freshNonce: (input, _args, scope) => {
    const fresh = scope['@freshNonce'] as (() => string) | undefined;
    if (!fresh) throw new ConformError('CONFORM_TEMPLATE', 'freshNonce is not available here');
    return `${stringify(input)}${fresh()}`;
  },
  plus: (input, [n]) => Number(input) + Number(n),
  specDate: (input) => formatSpecDateUtc(Number(input)),
  dateShape: (input, [shape]) => formatOtherDate(Number(input), stringify(shape)),
  cookie: (input) =>
    asList(input)
      .flatMap((v) => String(v).split(/,(?=\s*[^;,=\s]+=)/))
      .map((c) => c.split(';')[0]!.trim())
      .filter((c) => c.includes('='))
      .join('; '),
  mutate: (input, [m]) => applyMutation(stringify(input), m as Mutation),
  urlencode: (input) => percentEncode(stringify(input)),
  query: (input) =>
    asList(input)
      .map((pair) => {
        const [k, v] = Array.isArray(pair) ? pair : [pair, ''];
        return `${percentEncode(stringify(k))}=${percentEncode(stringify(v))}`;
      })
      .join('&'),
  length: (input) => (typeof input === 'string' ? input.length : asList(input).length),
};
