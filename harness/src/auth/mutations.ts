/**
 * Mutations of secrets and digests, drawn as descriptors by generators and applied only here, so counterexamples
 * and reports show "prefix of length 3" and never the password they were applied to.
 */
export type Mutation =
  | { kind: 'prefix'; length: number }
  | { kind: 'extend'; suffix: string }
  | { kind: 'flipCase'; index: number }
  | { kind: 'replace'; index: number; char: string }
  | { kind: 'truncate'; length: number }
  | { kind: 'drop'; index: number };

const flip = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());

/**
 * Applies a mutation and guarantees the result differs from the input (a mutation that would be a no-op — flipping
 * the case of a digit — moves to the next position where it changes something, or falls back to appending).
 */
export function applyMutation(value: string, m: Mutation): string {
  const chars = [...value];
  const n = chars.length;
  let out: string;
  switch (m.kind) {
    case 'prefix':
    case 'truncate':
      out = chars.slice(0, Math.max(0, Math.min(n - 1, m.length % Math.max(1, n)))).join('');
      break;
    case 'extend':
      out = value + (m.suffix || 'x');
      break;
    case 'flipCase': {
      out = value;
      for (let k = 0; k < n; k++) {
        const i = (m.index + k) % n;
        const c = chars[i]!;
        if (flip(c) !== c) {
          out = [...chars.slice(0, i), flip(c), ...chars.slice(i + 1)].join('');
          break;
        }
      }
      break;
    }
    case 'replace': {
      const i = n === 0 ? 0 : m.index % n;
      const c = chars[i] === m.char ? (m.char === 'A' ? 'B' : 'A') : m.char;
      out = [...chars.slice(0, i), c, ...chars.slice(i + 1)].join('');
      break;
    }
    case 'drop': {
      const i = n === 0 ? 0 : m.index % n;
      out = [...chars.slice(0, i), ...chars.slice(i + 1)].join('');
      break;
    }
    default: {
      const never: never = m;
      throw new Error(`unknown mutation ${JSON.stringify(never)}`);
    }
  }
  return out === value ? `${value}x` : out;
}

/** Bytes of a base64 text as the most lenient decoder reads it (node's: padding optional, stops at `=`, skips junk). */
function lenientBytes(text: string): Buffer {
  return Buffer.from(text, 'base64');
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Applies a mutation to a base64 digest (or signature) so that the bytes it decodes to change (VERDICTS.md §4): a
 * server that compares decoded digests is correct, so changing only the padding, the unused low bits of the last
 * character, or what follows the padding is no mutation. Such a result moves to the nearest change of the same
 * kind that does change the bytes: an extension goes after the data (before the padding), a truncation or drop
 * takes a data character, a replacement flips the character's high bit.
 */
export function applyDigestMutation(digest: string, m: Mutation): string {
  const original = lenientBytes(digest);
  const changes = (text: string) => !lenientBytes(text).equals(original);
  const out = applyMutation(digest, m);
  if (changes(out)) return out;
  const data = digest.replace(/=+$/, '');
  let next: string;
  switch (m.kind) {
    case 'extend': {
      const extra = [...m.suffix].filter((c) => B64.includes(c)).join('');
      next = data + (extra === '' ? 'A' : extra);
      break;
    }
    case 'prefix':
    case 'truncate':
    case 'drop':
      next = data.slice(0, -1);
      break;
    case 'replace':
    case 'flipCase': {
      const i =
        data.length === 0
          ? 0
          : Math.min(
              data.length - 1,
              m.kind === 'replace' ? m.index % Math.max(1, digest.length) : m.index % Math.max(1, data.length),
            );
      const value = B64.indexOf(data[i] ?? 'A');
      next = data.slice(0, i) + B64[Math.max(0, value) ^ 0b100000]! + data.slice(i + 1) + digest.slice(data.length);
      break;
    }
    default: {
      const never: never = m;
      throw new Error(`unknown mutation ${JSON.stringify(never)}`);
    }
  }
  return changes(next)
    ? next
    : `${data.length > 0 ? B64[B64.indexOf(data[0]!) ^ 0b100000] : 'A'}${data.slice(1)}${digest.slice(data.length)}`;
}

/** A password as a server that prepares it per RFC 8265 OpaqueString (PRECIS) compares it: NFC, non-ASCII spaces as U+0020. */
export function preparedPassword(password: string): string {
  return password.replace(/\p{Zs}/gu, ' ').normalize('NFC');
}

/**
 * Applies a mutation to a password or client secret so that the result is another password, not the same one
 * written differently (VERDICTS.md §4): it must differ after RFC 8265 preparation, so a precomposed "é" replaced by
 * "e" and a combining accent, or a space by a no-break space, is no mutation. Such a result gets an "x" appended.
 */
export function applyPasswordMutation(password: string, m: Mutation): string {
  const out = applyMutation(password, m);
  return preparedPassword(out) === preparedPassword(password) ? `${password}x` : out;
}
