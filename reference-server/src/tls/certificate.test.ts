import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createServer, get } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_NAME, generateSelfSignedCertificate } from './certificate.js';
import { oid, time, tlv, unsignedInteger } from './der.js';

const DAY_MS = 86_400_000;

/** GET / over TLS to 127.0.0.1, trusting only `ca`; `servername` makes the client check that DNS name instead of the IP. */
function fetchOver(port: number, servername: string | undefined, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/', ca, ...(servername === undefined ? {} : { servername }) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

describe('der', () => {
  it('encodes lengths, integers, OIDs and times as X.690 says', () => {
    expect(tlv(0x04, Buffer.alloc(3)).toString('hex')).toBe('0403000000');
    expect(tlv(0x04, Buffer.alloc(200)).subarray(0, 3).toString('hex')).toBe('0481c8');
    expect(tlv(0x04, Buffer.alloc(300)).subarray(0, 4).toString('hex')).toBe('0482012c');
    expect(unsignedInteger(Buffer.from([0x00, 0x80])).toString('hex')).toBe('02020080');
    expect(unsignedInteger(Buffer.from([0x00, 0x00, 0x01])).toString('hex')).toBe('020101');
    expect(oid('1.2.840.10045.4.3.2').toString('hex')).toBe('06082a8648ce3d040302');
    expect(time(new Date('2026-11-22T10:00:00Z')).toString('latin1')).toBe('\x17\x0d261122100000Z');
    expect(time(new Date('2050-01-01T00:00:00Z')).toString('latin1')).toBe('\x18\x0f20500101000000Z');
  });

  it('switches to the long length form at 128 bytes', () => {
    expect(tlv(0x04, Buffer.alloc(127)).subarray(0, 2).toString('hex')).toBe('047f');
    expect(tlv(0x04, Buffer.alloc(128)).subarray(0, 3).toString('hex')).toBe('048180');
  });

  it('keeps an unsigned integer minimal: zeros trimmed to one, never past a non-zero byte, 0x00 before a high bit', () => {
    const hex = (bytes: number[]): string => unsignedInteger(Buffer.from(bytes)).toString('hex');
    expect(hex([])).toBe('020100');
    expect(hex([0x00])).toBe('020100');
    expect(hex([0x00, 0x00, 0x00])).toBe('020100');
    expect(hex([0x01, 0x00])).toBe('02020100');
    expect(hex([0x00, 0x05, 0x01])).toBe('02020501');
    expect(hex([0x7f, 0x00, 0x00])).toBe('02037f0000');
    expect(hex([0x00, 0x00, 0xff, 0x01])).toBe('020300ff01');
  });
});

describe('generateSelfSignedCertificate', () => {
  it('is a valid self-signed P-256 certificate for localhost and 127.0.0.1, valid now-1d to now+30d', () => {
    const now = new Date('2026-03-04T05:06:07Z');
    const { cert, key } = generateSelfSignedCertificate(now);
    const x509 = new X509Certificate(cert);
    expect(x509.subject).toBe(`CN=${CERTIFICATE_NAME}`);
    expect(x509.issuer).toBe(x509.subject);
    expect(x509.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(new Date(x509.validFrom).getTime()).toBe(now.getTime() - DAY_MS);
    expect(new Date(x509.validTo).getTime()).toBe(now.getTime() + 30 * DAY_MS);
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.ca).toBe(false);
    expect(x509.checkPrivateKey(createPrivateKey(key))).toBe(true);
  });

  it('serves a real TLS handshake to clients that trust only it, by IP and by name', async () => {
    const { cert, key } = generateSelfSignedCertificate();
    const server = createServer({ cert, key }, (_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await fetchOver(port, undefined, cert)).toBe('hello');
      expect(await fetchOver(port, 'localhost', cert)).toBe('hello');
      await expect(fetchOver(port, 'example.com', cert)).rejects.toThrow(/altnames/);
      await expect(fetchOver(port, undefined, generateSelfSignedCertificate().cert)).rejects.toThrow();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
