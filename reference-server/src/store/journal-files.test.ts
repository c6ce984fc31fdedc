import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../test/temp-dir.js';
import { createState } from '../handle.js';
import { encodeChange } from './changes.js';
import { JOURNAL_FILE, JournalCorruptError, openJournal } from './journal.js';

/** The lock file of a data directory: the pid of the process that holds it. */
const LOCK = 'lock';

const freshState = () => createState({ maxArticles: 10, maxBodyBytes: 1000 });

describe('the data directory on disk', () => {
  it('a fresh directory loads nothing, and says so without a torn line', async ({ tempDir: dir }) => {
    const logged: string[] = [];
    const journal = await openJournal(dir, freshState(), { nowMs: () => 0, log: (l) => logged.push(l) });
    await journal.close();
    expect(logged).toEqual([`data ${dir}: 0 articles, 0 live nonces from 0 journal lines`]);
  });

  it('is locked with this process id while open, and unlocked by close', async ({ tempDir: dir }) => {
    const journal = await openJournal(dir, freshState(), { nowMs: () => 0, log: () => {} });
    expect(await readFile(path.join(dir, LOCK), 'utf8')).toBe(String(process.pid));
    await journal.close();
    expect(await readdir(dir)).not.toContain(LOCK);
  });

  it('close leaves a lock that another process has taken since', async ({ tempDir: dir }) => {
    const journal = await openJournal(dir, freshState(), { nowMs: () => 0, log: () => {} });
    const other = String(process.pid + 1);
    await writeFile(path.join(dir, LOCK), other);
    await journal.close();
    expect(await readFile(path.join(dir, LOCK), 'utf8')).toBe(other);
  });

  it('a journal damaged in the middle is refused naming the file', async ({ tempDir: dir }) => {
    const line = encodeChange({
      kind: 'article-set',
      key: 'a',
      article: { title: 'x', price: '1.0', currency: 'eur' },
      generated: false,
    });
    const file = path.join(dir, JOURNAL_FILE);
    await writeFile(file, line + line.replace('"x"', '"y"') + line);
    const opened = openJournal(dir, freshState(), { nowMs: () => 0, log: () => {} });
    await expect(opened).rejects.toThrow(JournalCorruptError);
    await expect(opened).rejects.toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\S`));
  });

  it('a journal that cannot be read is refused with the system error as it is', async ({ tempDir: dir }) => {
    await mkdir(path.join(dir, JOURNAL_FILE));
    const opened = openJournal(dir, freshState(), { nowMs: () => 0, log: () => {} });
    await expect(opened).rejects.toMatchObject({ code: 'EISDIR', message: expect.stringMatching(/^EISDIR: /) });
    expect(await readdir(dir)).not.toContain(LOCK);
  });
});
