import { X509Certificate } from 'node:crypto';
import type * as Crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateSelfSignedCertificate } from './certificate.js';

/** The next bytes `randomBytes` hands out (the key pair still comes from the real generator). */
const next = vi.hoisted(() => ({ bytes: undefined as Buffer | undefined }));

vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  return {
    ...real,
    randomBytes: (size: number): Buffer => next.bytes?.subarray(0, size) ?? real.randomBytes(size),
  };
});

afterEach(() => {
  next.bytes = undefined;
});

/** The serial number of a certificate generated while `randomBytes` hands out `first` then 15 bytes of 0xab. */
function serialFrom(first: number): string {
  next.bytes = Buffer.concat([Buffer.from([first]), Buffer.alloc(15, 0xab)]);
  return new X509Certificate(generateSelfSignedCertificate().cert).serialNumber.toLowerCase();
}

describe('the certificate serial number (RFC 5280 §4.1.2.2: positive, at most 20 bytes)', () => {
  it('keeps the random bytes, with the top bit of the first cleared so that it is positive', () => {
    expect(serialFrom(0xff)).toBe(`7f${'ab'.repeat(15)}`);
    expect(serialFrom(0x42)).toBe(`42${'ab'.repeat(15)}`);
  });

  it('makes the first byte 0x01 when clearing the top bit would leave it zero, so the serial keeps 16 bytes', () => {
    expect(serialFrom(0x80)).toBe(`01${'ab'.repeat(15)}`);
    expect(serialFrom(0x00)).toBe(`01${'ab'.repeat(15)}`);
  });
});
