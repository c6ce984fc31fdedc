#!/usr/bin/env python3
"""Computes specs/vectors/auth.yaml with Python's standard library (hmac, hashlib, base64), independently of the
project's TypeScript. Run: python3 scripts/vectors/make-auth-vectors.py > specs/vectors/auth.yaml
The RFC 4231 digests printed by the RFC are asserted here before anything is written."""
import base64, hashlib, hmac, json

def q(s):  # YAML double-quoted scalar (JSON strings are valid YAML)
    return json.dumps(s, ensure_ascii=False)

def h256(key, data):
    return hmac.new(key, data, hashlib.sha256)

rfc4231 = [
    ("RFC 4231 test case 1", b"\x0b" * 20, b"Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    ("RFC 4231 test case 2", b"Jefe", b"what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    ("RFC 4231 test case 3", b"\xaa" * 20, b"\xdd" * 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    ("RFC 4231 test case 4", bytes(range(1, 26)), b"\xcd" * 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    ("RFC 4231 test case 6", b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First", "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ("RFC 4231 test case 7", b"\xaa" * 131, b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.", "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
]

print("# Known-answer vectors for the authentication schemes of SPEC.md §5.1–5.2, computed OUTSIDE the project's code")
print("# by scripts/vectors/make-auth-vectors.py (Python hmac/hashlib/base64; the RFC 4231 digests are the RFC's own).")
print("# The harness's signers and the reference server's verifiers are each tested against this file, and the harness")
print("# refuses to run when its own signer disagrees with it. Data only: do not edit by hand.")
print("version: 1")
print("hmacSha256:")
for name, key, data, want in rfc4231:
    got = h256(key, data).hexdigest()
    assert got == want, (name, got)
    print(f"  - name: {q(name)}")
    print(f"    keyHex: {q(key.hex())}")
    print(f"    dataHex: {q(data.hex())}")
    print(f"    macHex: {q(want)}")

print("basic:")
basic = [("RFC 7617 §2 example", "Aladdin", "open sesame"), ("RFC 7617 §2.1 example (UTF-8)", "test", "123£"),
         ("password with colons", "alice", "wonder:land"), ("non-ASCII user and password with a colon", "zoë", "pä:ss wörd✓")]
for name, user, pw in basic:
    token = base64.b64encode(f"{user}:{pw}".encode("utf-8")).decode()
    print(f"  - name: {q(name)}")
    print(f"    user: {q(user)}")
    print(f"    password: {q(pw)}")
    print(f"    header: {q('Basic ' + token)}")
assert base64.b64encode("Aladdin:open sesame".encode()).decode() == "QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
assert base64.b64encode("test:123£".encode()).decode() == "dGVzdDoxMjPCow=="

def digest(secret, message):
    return base64.b64encode(h256(secret.encode("utf-8"), message.encode("utf-8")).digest()).decode()

print("hmacSimple:")
simple = [("GET on the root", "alice", "alice-secret-1", "GET", "/"),
          ("GET own records", "alice", "alice-secret-1", "GET", "/users/alice/financialrecords"),
          ("PUT an article", "bob", "bob-secret-2", "PUT", "/articles/my-first-article"),
          ("POST to the collection", "alice", "alice-secret-1", "POST", "/articles")]
for name, user, secret, verb, path in simple:
    msg = f"{verb}+{path}"
    d = digest(secret, msg)
    print(f"  - name: {q(name)}")
    print(f"    user: {user}\n    secret: {secret}\n    method: {verb}\n    path: {q(path)}")
    print(f"    message: {q(msg)}\n    digest: {q(d)}\n    header: {q(f'hmac {user}:{d}')}")

print("hmacNonce:")
nonce = [("GET own records", "alice", "alice-secret-1", "GET", "/users/alice/financialrecords", "22 Nov 2026 10:00:00", "1"),
         ("GET the root, 20-digit nonce beyond 2^53", "alice", "alice-secret-1", "GET", "/", "03 Sep 2012 14:25:07", "18446744073709551615"),
         ("DELETE, nonce with leading zeros", "bob", "bob-secret-2", "DELETE", "/articles/x", "01 Jan 2027 00:00:59", "000123"),
         ("PUT via the alias", "bob", "bob-secret-2", "PUT", "/article/42", "29 Feb 2028 23:59:59", "9007199254740993")]
for name, user, secret, verb, path, date, n in nonce:
    date_text = date.replace(" ", "").lower()
    msg = f"{verb}+{path}+{date_text}+{n}"
    d = digest(secret, msg)
    print(f"  - name: {q(name)}")
    print(f"    user: {user}\n    secret: {secret}\n    method: {verb}\n    path: {q(path)}\n    date: {q(date)}\n    nonce: {q(n)}")
    print(f"    dateText: {q(date_text)}\n    message: {q(msg)}\n    digest: {q(d)}\n    header: {q(f'hmac {user}:{n}:{d}')}")

print("# conform's body-hash extension of §5.2 rule 6 (docs/auth.md): for PUT and POST the message gains")
print("# +<base64(SHA-256(body bytes))> at its end, in both forms.")
print("hmacBodyHash:")
bodies = [("PUT with a body, nonce form", "alice", "alice-secret-1", "PUT", "/articles/a1", "22 Nov 2026 10:00:00", "77",
           '<?xml version="1.0" encoding="UTF-8"?><article><title>A &amp; B</title><price currency="eur">12.50</price></article>'),
          ("POST with an empty body, nonce form", "bob", "bob-secret-2", "POST", "/articles", "22 Nov 2026 10:00:01", "78", ""),
          ("PUT with a body, simple form", "alice", "alice-secret-1", "PUT", "/articles/a1", None, None,
           '<article><title>Ünïcode</title><price currency="usd">1.0</price></article>')]
for name, user, secret, verb, path, date, n, body in bodies:
    bh = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
    if date is None:
        msg = f"{verb}+{path}+{bh}"
        d = digest(secret, msg)
        header = f"hmac {user}:{d}"
    else:
        msg = f"{verb}+{path}+{date.replace(' ', '').lower()}+{n}+{bh}"
        d = digest(secret, msg)
        header = f"hmac {user}:{n}:{d}"
    print(f"  - name: {q(name)}")
    print(f"    user: {user}\n    secret: {secret}\n    method: {verb}\n    path: {q(path)}")
    if date is not None:
        print(f"    date: {q(date)}\n    nonce: {q(n)}")
    print(f"    body: {q(body)}\n    bodyHash: {q(bh)}\n    message: {q(msg)}\n    digest: {q(d)}\n    header: {q(header)}")
