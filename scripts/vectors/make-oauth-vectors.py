#!/usr/bin/env python3
"""Computes specs/vectors/oauth.yaml with Python's standard library (hmac, hashlib, base64, urllib), independently of
the project's TypeScript. Run: python3 scripts/vectors/make-oauth-vectors.py > specs/vectors/oauth.yaml
The published signatures are asserted before anything is written."""
import base64, hashlib, hmac, json
from urllib.parse import quote, urlsplit, parse_qsl

def q(s):
    return json.dumps(s, ensure_ascii=False)

def enc(s):  # RFC 5849 §3.6: unreserved characters kept, everything else %XX (uppercase), UTF-8
    return quote(s, safe="-._~")

def base_uri(url):  # §3.4.1.2: scheme and host lowercase, default port dropped, no query
    u = urlsplit(url)
    scheme = u.scheme.lower()
    host = u.hostname.lower()
    port = u.port
    netloc = host if port is None or (scheme, port) in (("http", 80), ("https", 443)) else f"{host}:{port}"
    return f"{scheme}://{netloc}{u.path or '/'}"

def base_string(method, url, params):  # params: list of (name, value), already decoded
    pairs = sorted((enc(k), enc(v)) for k, v in params)
    normalized = "&".join(f"{k}={v}" for k, v in pairs)
    return "&".join([enc(method.upper()), enc(base_uri(url)), enc(normalized)])

def sign(base, consumer_secret, token_secret, method="HMAC-SHA1"):
    key = f"{enc(consumer_secret)}&{enc(token_secret)}"
    if method == "PLAINTEXT":  # §3.4.4: the key itself, no base string
        return key
    digest = {"HMAC-SHA1": hashlib.sha1, "HMAC-SHA256": hashlib.sha256}[method]
    return base64.b64encode(hmac.new(key.encode(), base.encode(), digest).digest()).decode()

def query_params(url):
    return parse_qsl(urlsplit(url).query, keep_blank_values=True)

cases = []

# RFC 5849 §1.2: the RFC prints nonce "chapoh" in its base string, but only "chapoH" (as in its Authorization
# header) reproduces the published signature.
url = "http://photos.example.net/photos?file=vacation.jpg&size=original"
oauth = [("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_token", "nnch734d00sl2jdk"), ("oauth_signature_method", "HMAC-SHA1"),
         ("oauth_timestamp", "137131202"), ("oauth_nonce", "chapoH")]
b = base_string("GET", url, query_params(url) + oauth)
s = sign(b, "kd94hf93k423kf44", "pfkkdhi9sl3r4s00")
assert s == "MdpQcU8iPSUjWoN/UDMsK2sui9I=", s
wrong = sign(base_string("GET", url, query_params(url) + [(k, "chapoh" if k == "oauth_nonce" else v) for k, v in oauth]), "kd94hf93k423kf44", "pfkkdhi9sl3r4s00")
assert wrong != s
cases.append(("RFC 5849 §1.2 (nonce chapoH, not the chapoh printed in its base string)", "GET", url, "", oauth, "kd94hf93k423kf44", "pfkkdhi9sl3r4s00", b, s))

# OAuth Core 1.0a, Appendix A.5.
oauth = [("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_token", "nnch734d00sl2jdk"), ("oauth_signature_method", "HMAC-SHA1"),
         ("oauth_timestamp", "1191242096"), ("oauth_nonce", "kllo9940pd9333jh"), ("oauth_version", "1.0")]
b = base_string("GET", url, query_params(url) + oauth)
s = sign(b, "kd94hf93k423kf44", "pfkkdhi9sl3r4s00")
assert s == "tR3+Ty81lMeYAr/Fid0kMTYa/WM=", s
cases.append(("OAuth Core 1.0a Appendix A", "GET", url, "", oauth, "kd94hf93k423kf44", "pfkkdhi9sl3r4s00", b, s))

# RFC 5849 §3.4.1 example: encoded query, a form body with "+", a parameter without value, duplicates.
url = "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"
body = "c2&a3=2+q"
oauth = [("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"), ("oauth_signature_method", "HMAC-SHA1"),
         ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a")]
params = query_params(url) + parse_qsl(body, keep_blank_values=True) + oauth
b = base_string("POST", url, params)
expected_base = ("POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26"
                 "oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7")
assert b == expected_base, b
s = sign(b, "j49sk3j29djd", "dh893hdasih9")
cases.append(("RFC 5849 §3.4.1 base string example (secrets chosen here)", "POST", url, body, oauth, "j49sk3j29djd", "dh893hdasih9", b, s))

# Non-ASCII and reserved characters, HTTPS with a non-default port (conform's own case).
url = "https://127.0.0.1:8443/users/alice/financialrecords?q=caf%C3%A9&x=%21%2A%27%28%29"
oauth = [("oauth_consumer_key", "conform-consumer"), ("oauth_token", "tok-1"), ("oauth_signature_method", "HMAC-SHA1"),
         ("oauth_timestamp", "1795341600"), ("oauth_nonce", "n-ü-1"), ("oauth_version", "1.0")]
b = base_string("GET", url, query_params(url) + oauth)
s = sign(b, "consumer-secret-1", "token&secret é")
cases.append(("non-ASCII values, reserved characters, a non-default port", "GET", url, "", oauth, "consumer-secret-1", "token&secret é", b, s))

# HMAC-SHA256 (the HMAC-SHA1 construction of §3.4.2 with SHA-256, as oauthlib and others offer it) and PLAINTEXT
# (§3.4.4), over conform's own case.
for method in ("HMAC-SHA256", "PLAINTEXT"):
    oauth = [("oauth_consumer_key", "conform-consumer"), ("oauth_token", "tok-1"), ("oauth_signature_method", method),
             ("oauth_timestamp", "1795341600"), ("oauth_nonce", "n-ü-2"), ("oauth_version", "1.0")]
    b = base_string("GET", url, query_params(url) + oauth)
    s = sign(b, "consumer-secret-1", "token&secret é", method)
    cases.append((f"{method}: non-ASCII values, reserved characters, a non-default port", "GET", url, "", oauth, "consumer-secret-1", "token&secret é", b, s))
assert cases[-1][-1] == "consumer-secret-1&token%26secret%20%C3%A9", cases[-1][-1]

print("# Known-answer vectors for OAuth 1.0a signatures: HMAC-SHA1, HMAC-SHA256 and PLAINTEXT (RFC 5849 §3.4), computed OUTSIDE the project's code")
print("# by scripts/vectors/make-oauth-vectors.py (Python hmac/hashlib/base64/urllib); the published signatures are")
print("# asserted there. Data only: do not edit by hand.")
print("version: 1")
print("oauth1:")
for name, method, url, body, oauth, cs, ts, b, s in cases:
    print(f"  - name: {q(name)}")
    print(f"    method: {method}")
    print(f"    url: {q(url)}")
    print(f"    body: {q(body)}")
    print("    oauth:")
    for k, v in oauth:
        print(f"      - [{q(k)}, {q(v)}]")
    print(f"    consumerSecret: {q(cs)}")
    print(f"    tokenSecret: {q(ts)}")
    print(f"    baseString: {q(b)}")
    print(f"    signature: {q(s)}")
