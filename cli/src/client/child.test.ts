import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_LINE, lineReader, runChild } from './child.js';

function collect() {
  const lines: Array<[string, boolean]> = [];
  return { lines, onLine: (_stream: 'stdout' | 'stderr', line: string, end: boolean) => lines.push([line, end]) };
}

describe('lineReader', () => {
  it('keeps a character split across chunks whole, and a long line in one piece', async () => {
    const stream = new PassThrough();
    const { lines, onLine } = collect();
    const reader = lineReader('stdout', stream, onLine);
    const euro = Buffer.from('€ü\n', 'utf8');
    stream.write(euro.subarray(0, 1));
    stream.write(euro.subarray(1, 4));
    stream.write(euro.subarray(4));
    const long = 'x'.repeat(200_000);
    stream.write(`${long}\nlast`);
    stream.end();
    await reader.closed;
    reader.finish();
    expect(lines).toEqual([
      ['€ü', true],
      [long, true],
      ['last', true],
    ]);
  });

  it('passes a line past MAX_LINE on in pieces, each but the last marked as continued', async () => {
    const stream = new PassThrough();
    const { lines, onLine } = collect();
    const reader = lineReader('stdout', stream, onLine);
    stream.write('y'.repeat(MAX_LINE + 5));
    stream.end('\n');
    await reader.closed;
    reader.finish();
    expect(lines.map(([l, end]) => [l.length, end])).toEqual([
      [MAX_LINE, false],
      [5, true],
    ]);
  });
});

describe('runChild', () => {
  it('a background process in the same group does not hold the command: its group is killed at exit', async () => {
    const { lines, onLine } = collect();
    const exit = await runChild({
      command: 'sh',
      args: ['-c', 'sleep 30 & echo started'],
      env: process.env,
      cwd: process.cwd(),
      timeoutMs: 20_000,
      onLine,
    });
    expect(exit).toEqual({ code: 0, signal: null, timedOut: false });
    expect(lines).toEqual([['started', true]]);
  });

  it('a process in a session of its own holding the output: read until the drain ends, then done', async () => {
    const { lines, onLine } = collect();
    const script =
      "const c = require('node:child_process').spawn('sleep', ['30'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] }); c.unref(); console.log('left ' + c.pid)";
    const exit = await runChild({
      command: process.execPath,
      args: ['-e', script],
      env: process.env,
      cwd: process.cwd(),
      timeoutMs: 20_000,
      drainMs: 200,
      onLine,
    });
    const pid = Number(/^left (\d+)$/.exec(lines[0]?.[0] ?? '')?.[1]);
    try {
      expect(exit).toEqual({ code: 0, signal: null, timedOut: false, outputHeld: true });
    } finally {
      if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });
});
