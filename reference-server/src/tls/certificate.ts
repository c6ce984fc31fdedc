import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import {
  bitString,
  boolean,
  explicit,
  implicit,
  octetString,
  oid,
  sequence,
  set,
  smallInteger,
  time,
  unsignedInteger,
  utf8String,
} from './der.js';

/** A PEM certificate and its PEM (PKCS #8) private key. */
export interface TlsCredentials {
  cert: string;
  key: string;
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

const DAY_MS = 86_400_000;
/** Subject and issuer common name of generated certificates. */
export const CERTIFICATE_NAME = 'conform reference server';

/**
 * Generates a self-signed X.509 v3 certificate for `localhost` and `127.0.0.1` (subjectAltName DNS and IP), with a
 * fresh EC P-256 key, signed with ECDSA-SHA256, valid from `now` − 1 day to `now` + 30 days. DER is built by hand
 * over `node:crypto` (no OpenSSL command line).
 */
export function generateSelfSignedCertificate(now: Date = new Date()): TlsCredentials {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const name = sequence(set(sequence(oid(OID.commonName), utf8String(CERTIFICATE_NAME))));
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f || 0x01;
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    unsignedInteger(serial),
    algorithm,
    name,
    sequence(time(new Date(now.getTime() - DAY_MS)), time(new Date(now.getTime() + 30 * DAY_MS))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...extensions())),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, algorithm, bitString(signature));
  return { cert: pem('CERTIFICATE', der), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/** subjectAltName (DNS:localhost, IP:127.0.0.1), basicConstraints CA:false, keyUsage digitalSignature, serverAuth. */
function extensions(): Buffer[] {
  const altNames = sequence(implicit(2, Buffer.from('localhost', 'ascii')), implicit(7, Buffer.from([127, 0, 0, 1])));
  return [
    sequence(oid(OID.subjectAltName), octetString(altNames)),
    sequence(oid(OID.basicConstraints), boolean(true), octetString(sequence())),
    sequence(oid(OID.keyUsage), boolean(true), octetString(Buffer.from([0x03, 0x02, 0x07, 0x80]))),
    sequence(oid(OID.extKeyUsage), octetString(sequence(oid(OID.serverAuth)))),
  ];
}

function pem(label: string, der: Uint8Array): string {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
