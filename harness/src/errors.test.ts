import { describe, expect, it } from 'vitest';
import { ConformError, EXIT_CODE, InvalidFileError, exitCodeForError, type ConformErrorCode } from './errors.js';

// One row per code: the table is the contract (CONTRACT.md exit codes), written out independently of EXIT_CODE.
const TABLE: [ConformErrorCode, number][] = [
  ['CONFORM_USAGE', 2],
  ['CONFORM_INVALID_FILE', 2],
  ['CONFORM_IO', 2],
  ['CONFORM_TEMPLATE', 2],
  ['CONFORM_SELF_TEST', 4],
  ['CONFORM_INTERNAL', 4],
];

describe('ConformError codes → exit codes', () => {
  it('the table names every code once', () => {
    expect(TABLE.map(([c]) => c).sort()).toEqual(Object.keys(EXIT_CODE).sort());
  });

  it.each(TABLE)('%s exits %i', (code, exit) => {
    const err = new ConformError(code, 'm', { cause: new Error('c') });
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'ConformError', code, message: 'm' });
    expect((err.cause as Error).message).toBe('c');
    expect(exitCodeForError(err)).toBe(exit);
  });

  it('InvalidFileError is CONFORM_INVALID_FILE, its message one file:line:col line per issue', () => {
    const err = new InvalidFileError([
      { file: 'a.yaml', line: 1, column: 2, path: 'x', message: 'bad' },
      { file: 'b.yaml', line: 3, column: 4, path: 'y', message: 'worse' },
    ]);
    expect(err).toBeInstanceOf(ConformError);
    expect(err).toMatchObject({
      name: 'InvalidFileError',
      code: 'CONFORM_INVALID_FILE',
      message: 'a.yaml:1:2: bad\nb.yaml:3:4: worse',
    });
    expect(exitCodeForError(err)).toBe(2);
  });

  it.each([new Error('x'), new TypeError('y'), 'a string', undefined])(
    'anything else thrown is a bug: exit 4 (%s)',
    (thrown) => {
      expect(exitCodeForError(thrown)).toBe(4);
    },
  );
});
