/**
 * The `Host` check of RFC 9112 §3.2: HTTP/1.1 message framing, which the server enforces as hardening. The
 * conformance catalogue holds the spec's rules and the RFCs it names for its resources and schemes, not message
 * framing (a target commonly leaves that to the proxy in front of it), so this is judged by its unit tests
 * (host.test.ts; part 2 of docs/mutation.md), not by a scenario.
 */
import { isIPv6 } from 'node:net';
import type { RequestRecord } from './records.js';

/** `reg-name` or `IPv4address` of RFC 3986 §3.2.2: unreserved characters, sub-delims and percent-encodings. */
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
/** `IPvFuture` of RFC 3986 §3.2.2, between the brackets of an IP-literal. */
const IP_FUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;

/**
 * Why the request's `Host` is unacceptable, or undefined when it is fine. RFC 9112 §3.2: a server MUST answer 400 to
 * a request with more than one Host field line or with an invalid one (`uri-host [ ":" port ]`, RFC 3986); an
 * HTTP/1.1 request without Host is refused by node's parser already. An empty value is valid (an authority-less URI).
 */
export function hostProblem(req: RequestRecord): string | undefined {
  const value = req.headers['host'];
  if (Array.isArray(value))
    return value.length > 1
      ? `the request has ${value.length} Host header fields; RFC 9112 §3.2 allows one`
      : undefined;
  if (value === undefined) return undefined;
  const bracket = value.startsWith('[') ? value.indexOf(']') : -1;
  const colon = bracket >= 0 ? (value[bracket + 1] === ':' ? bracket + 1 : -1) : value.lastIndexOf(':');
  const host = colon < 0 ? value : value.slice(0, colon);
  const port = colon < 0 ? '' : value.slice(colon + 1);
  const hostValid =
    bracket >= 0
      ? bracket === host.length - 1 && (isIPv6(host.slice(1, -1)) || IP_FUTURE.test(host.slice(1, -1)))
      : REG_NAME.test(host);
  if (!hostValid || !/^[0-9]*$/.test(port))
    return `Host ${JSON.stringify(value)} is not a valid uri-host [ ":" port ] (RFC 9112 §3.2, RFC 3986 §3.2.2)`;
  return undefined;
}
