// What the load script needs to watch a reference cluster (`conform serve --instances N --redis URL`): the memory
// of each of its processes, the heap of each after its major GCs (from --trace-gc lines, which V8 prefixes with the
// pid), and Redis's own memory and key count; and, at the end, the removal of the run's keys.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Resident set size of a process, MiB: VmRSS from /proc on Linux, else `ps`; NaN when it is gone. */
export function processRssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux, or the process is gone
  }
  try {
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
  } catch {
    return NaN;
  }
}

/** `instance k (pid P)` lines of `conform serve --instances N`: the instances' pids, by number. */
export function instancePid(line) {
  const m = /^ {2}instance (\d+) \(pid (\d+)\)/.exec(line);
  return m ? { instance: Number(m[1]), pid: Number(m[2]) } : undefined;
}

/** A `--trace-gc` line of a major GC: the pid it came from and the heap after it, MiB. */
export function majorGc(line) {
  const m = /^\[(\d+):0x[0-9a-f]+\].*?Mark-Compact.*?->\s*([\d.]+)\s*\(/.exec(line);
  return m ? { pid: Number(m[1]), heapMiB: Number(m[2]) } : undefined;
}

/**
 * A Redis watcher on its own connection (ioredis, from the package's dependencies): `sample()` → { usedMiB, keys }
 * for the run's prefix, `cleanup()` removes every key of the prefix (articles stay in Redis otherwise).
 */
export async function watchRedis(url, prefix) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const pattern = `{${prefix}}:*`;
  const scan = async (each) => {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      await each(keys);
    } while (cursor !== '0');
  };
  return {
    async sample() {
      const info = await redis.info('memory');
      const used = Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? NaN) / 1024 / 1024;
      let keys = 0;
      await scan(async (batch) => {
        keys += batch.length;
      });
      return { usedMiB: used, keys };
    },
    async cleanup() {
      await scan(async (batch) => {
        if (batch.length > 0) await redis.unlink(...batch);
      });
    },
    close: () => redis.quit().catch(() => redis.disconnect()),
  };
}

/**
 * The cluster's part of the load report: RSS per process (start, after the warm-up, end), each process's heap after
 * its major GCs since the warm-up, and Redis's used memory and the run's keys. `{ lines, json }`.
 */
export function clusterFigures({ instances, rss, warmAt, majorGcs, instancePids, serverPid, redis }) {
  const mib = (x) => `${Number(x).toFixed(1)} MiB`;
  const lines = ['  processes     RSS at start / after warm-up / end:'];
  for (const name of Object.keys(rss.end))
    lines.push(
      `    ${name.padEnd(12)} ${mib(rss.start[name])} / ${mib(rss.warm[name] ?? NaN)} / ${mib(rss.end[name])}`,
    );
  const heaps = {};
  for (const [at, heap, pid] of majorGcs) if (at >= warmAt) (heaps[pid] ??= []).push(heap);
  const nameOf = (pid) => {
    const k = instancePids.indexOf(pid);
    if (k >= 0) return `instance ${k + 1}`;
    return pid === serverPid ? (instancePids.length > 0 ? 'balancer' : 'server') : `pid ${pid}`;
  };
  const heapByProcess = Object.fromEntries(
    Object.entries(heaps).map(([pid, h]) => [
      nameOf(Number(pid)),
      { majorGcs: h.length, first: h[0], last: h[h.length - 1], min: Math.min(...h), max: Math.max(...h) },
    ]),
  );
  for (const [name, h] of Object.entries(heapByProcess)) {
    lines.push(
      `    ${name.padEnd(12)} heap after ${h.majorGcs} major GCs since the warm-up: first ${mib(h.first)}, last ${mib(h.last)}, min ${mib(h.min)}, max ${mib(h.max)}`,
    );
  }
  const third = Math.floor(redis.samples.length / 3);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const used = (xs) => xs.map((r) => r.usedMiB);
  const trend =
    third > 0
      ? {
          firstThirdMiB: mean(used(redis.samples.slice(0, third))),
          lastThirdMiB: mean(used(redis.samples.slice(-third))),
          maxKeys: Math.max(...redis.samples.map((r) => r.keys)),
        }
      : undefined;
  lines.push(
    `  redis         used memory after warm-up ${mib(redis.warm?.usedMiB ?? NaN)}, end ${mib(redis.end?.usedMiB ?? NaN)}; keys of this run after warm-up ${redis.warm?.keys ?? '?'}, end ${redis.end?.keys ?? '?'}` +
      (trend
        ? `; mean used memory of the first third ${mib(trend.firstThirdMiB)}, of the last third ${mib(trend.lastThirdMiB)}`
        : ''),
  );
  return {
    lines,
    json: {
      instances,
      rssMiB: rss,
      heapAfterMajorGcMiB: heapByProcess,
      redis: { afterWarmup: redis.warm ?? null, end: redis.end ?? null, trend: trend ?? null },
    },
  };
}
