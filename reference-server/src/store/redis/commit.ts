/**
 * The commit of a transaction as one Lua script, so Redis applies it atomically: first every condition (each key
 * still holds the value the transaction read, or is still absent) and every capacity (an index that grows stays
 * within its limit), then — only if all hold — every write, with its lifetime (`SET … PX`) and index change. Nothing
 * is half-applied. A nonce is a write conditioned on its key being absent: check-and-store in one atomic step that
 * expires with the window. Pure: the script's text and the encoding of a {@link CommitPlan} into KEYS and ARGV.
 */
import type { CommitPlan } from './tx.js';

/**
 * KEYS: every key the plan names. ARGV: now (ms); then the count of conditions and, for each, the key's index in
 * KEYS, `1` when a value is expected (`0`: absent) and the value; the count of capacities and, for each, the index
 * key's position, `s` or `z`, the limit and the growth; the count of writes and, for each, the key's position, `1`
 * to set (`0` to delete), the value, the lifetime in ms (0: none), the index key's position (0: none), `s` or `z`,
 * `a` to add or `r` to remove, the member and its score. Returns the names of what failed — keys, or `index:<key>`
 * for a capacity — or an empty array when the writes were applied.
 */
export const COMMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local i = 2
local failed = {}
local n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  local key = KEYS[tonumber(ARGV[i])]
  local current = redis.call('GET', key)
  if ARGV[i + 1] == '1' then
    if current ~= ARGV[i + 2] then failed[#failed + 1] = key end
  elseif current then
    failed[#failed + 1] = key
  end
  i = i + 3
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  local key = KEYS[tonumber(ARGV[i])]
  local size
  if ARGV[i + 1] == 's' then
    size = redis.call('SCARD', key)
  else
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    size = redis.call('ZCARD', key)
  end
  if size + tonumber(ARGV[i + 3]) > tonumber(ARGV[i + 2]) then failed[#failed + 1] = 'index:' .. key end
  i = i + 4
end
if #failed > 0 then return failed end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  local key = KEYS[tonumber(ARGV[i])]
  local px = tonumber(ARGV[i + 3])
  if ARGV[i + 1] == '1' then
    if px > 0 then redis.call('SET', key, ARGV[i + 2], 'PX', px) else redis.call('SET', key, ARGV[i + 2]) end
  else
    redis.call('DEL', key)
  end
  local at = tonumber(ARGV[i + 4])
  if at > 0 then
    local index = KEYS[at]
    local member = ARGV[i + 7]
    if ARGV[i + 5] == 's' then
      if ARGV[i + 6] == 'a' then redis.call('SADD', index, member) else redis.call('SREM', index, member) end
    else
      if ARGV[i + 6] == 'a' then redis.call('ZADD', index, ARGV[i + 8], member) else redis.call('ZREM', index, member) end
    end
  end
  i = i + 9
end
return {}
`;

/** KEYS and ARGV of {@link COMMIT_SCRIPT} for one plan. */
export function encodeCommit(plan: CommitPlan): { keys: string[]; args: string[] } {
  const keys: string[] = [];
  const position = new Map<string, number>();
  const at = (key: string): string => {
    let p = position.get(key);
    if (p === undefined) {
      keys.push(key);
      p = keys.length;
      position.set(key, p);
    }
    return String(p);
  };
  const args: string[] = [String(plan.nowMs), String(plan.conditions.length)];
  for (const c of plan.conditions) args.push(at(c.key), c.value === null ? '0' : '1', c.value ?? '');
  args.push(String(plan.capacities.length));
  for (const c of plan.capacities)
    args.push(at(c.index), c.kind === 'set' ? 's' : 'z', String(c.limit), String(c.delta));
  args.push(String(plan.writes.length));
  for (const w of plan.writes) {
    const x = w.index;
    args.push(at(w.key), w.value === null ? '0' : '1', w.value ?? '', String(w.pxMs ?? 0));
    if (x === undefined) args.push('0', '', '', '', '');
    else args.push(at(x.key), x.kind === 'set' ? 's' : 'z', x.op === 'add' ? 'a' : 'r', x.member, scoreText(x.score));
  }
  return { keys, args };
}

/** A sorted-set score as Redis reads it: `+inf` for no expiry. */
function scoreText(score: number | undefined): string {
  return score === undefined || !Number.isFinite(score) ? '+inf' : String(score);
}
