#!/usr/bin/env node
// What a remembered nonce costs the reference server, for sizing a machine (docs/reference-server.md): the heap and the
// resident set before and after N nonces of 19 digits (a clock-and-counter nonce such as clients send), in one user's
// scope or spread over USERS users, in a fresh process each (a heap that already grew would hide the resident cost).
// Usage: node --expose-gc scripts/nonce-memory.mjs [N=400000] [USERS=1] (needs `npm run build`).
import { NonceStore } from '../dist/reference-server/src/index.js';

const N = Number(process.argv[2] ?? 400_000);
const gc = globalThis.gc ?? (() => {});
const measure = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};
const mib = (b) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
for (const users of [Number(process.argv[3] ?? 1)]) {
  const store = new NonceStore(N + 10, undefined, N + 10);
  const before = measure();
  const now = Date.now();
  const base = 1_790_000_000_000_000_000n;
  for (let i = 0; i < N; i++)
    store.checkAndStore(`user${i % users}`, String(base + BigInt(i) * 7919n), now + 600_000, now);
  const after = measure();
  const heap = after.heap - before.heap;
  const rss = after.rss - before.rss;
  console.log(
    `${N} nonces, ${users} user${users === 1 ? '' : 's'}: heap +${mib(heap)} (${Math.round(heap / N)} bytes a nonce), resident +${mib(rss)} (${Math.round(rss / N)} bytes a nonce)`,
  );
  if (store.size() !== N) throw new Error(`stored ${store.size()}, expected ${N}`);
}
