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
