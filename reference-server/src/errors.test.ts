import { describe, expect, it } from 'vitest';
import { InvalidUserError } from './auth/users.js';
import { ReferenceServerError, type RefErrorCode } from './errors.js';
import { UnknownFaultError } from './faults.js';
import { InvalidOAuthClientError } from './oauth/accounts.js';
import { JournalCorruptError } from './store/changes.js';
import { DataDirInUseError, JournalWriteError } from './store/journal.js';
import { VariantError } from './variants.js';
import { RedisEvictionError, SharedStoreError } from './store/redis/redis.js';

// Every error the reference server throws: its class, name and REF_* code (undici's test/errors.js is the model).
const TABLE: [string, () => ReferenceServerError, string, RefErrorCode][] = [
  ['UnknownFaultError', () => new UnknownFaultError('nope'), 'UnknownFaultError', 'REF_UNKNOWN_FAULT'],
  ['VariantError (unknown)', () => new VariantError('REF_UNKNOWN_VARIANT', 'm'), 'VariantError', 'REF_UNKNOWN_VARIANT'],
  [
    'VariantError (conflict)',
    () => new VariantError('REF_VARIANT_CONFLICT', 'm'),
    'VariantError',
    'REF_VARIANT_CONFLICT',
  ],
  ['InvalidUserError', () => new InvalidUserError('m'), 'InvalidUserError', 'REF_INVALID_USER'],
  [
    'InvalidOAuthClientError',
    () => new InvalidOAuthClientError('m'),
    'InvalidOAuthClientError',
    'REF_INVALID_OAUTH_CLIENT',
  ],
  ['DataDirInUseError', () => new DataDirInUseError('/d', 42), 'DataDirInUseError', 'REF_DATA_DIR_IN_USE'],
  ['JournalCorruptError', () => new JournalCorruptError(3, 'bad crc'), 'JournalCorruptError', 'REF_JOURNAL_CORRUPT'],
  ['JournalWriteError', () => new JournalWriteError(new Error('EIO')), 'JournalWriteError', 'REF_JOURNAL_WRITE_FAILED'],
  ['SharedStoreError', () => new SharedStoreError('m'), 'SharedStoreError', 'REF_REDIS_UNAVAILABLE'],
  ['RedisEvictionError', () => new RedisEvictionError('allkeys-lru'), 'RedisEvictionError', 'REF_REDIS_EVICTS'],
];

describe('reference-server errors', () => {
  it.each(TABLE)('%s', (_label, make, name, code) => {
    const err = make();
    expect(err).toBeInstanceOf(ReferenceServerError);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe(name);
    expect(err.code).toBe(code);
    expect(err.message.length).toBeGreaterThan(0);
  });

  it('the table covers every code', () => {
    const codes: Record<RefErrorCode, true> = {
      REF_UNKNOWN_FAULT: true,
      REF_UNKNOWN_VARIANT: true,
      REF_VARIANT_CONFLICT: true,
      REF_INVALID_USER: true,
      REF_INVALID_OAUTH_CLIENT: true,
      REF_DATA_DIR_IN_USE: true,
      REF_JOURNAL_CORRUPT: true,
      REF_JOURNAL_WRITE_FAILED: true,
      REF_REDIS_UNAVAILABLE: true,
      REF_REDIS_EVICTS: true,
    };
    expect([...new Set(TABLE.map((row) => row[3]))].sort()).toEqual(Object.keys(codes).sort());
  });

  it('JournalWriteError keeps its cause; JournalCorruptError its line', () => {
    const cause = new Error('EIO');
    expect(new JournalWriteError(cause).cause).toBe(cause);
    expect(new JournalCorruptError(7, 'x')).toMatchObject({ line: 7, message: 'journal line 7: x' });
  });
});
