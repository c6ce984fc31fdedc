"""An Authlib OAuth 1.0a client for `conform check-client` tests: the three legs (temporary credentials, the owner's
approval with Basic, token credentials) then a signed GET, over TLS.

`python-authlib-oauth1.py HMAC-SHA1|PLAINTEXT`: the signature method (RFC 5849 §3.4.2, §3.4.4). Needs Debian's
python3-authlib and python3-requests.
"""
import os
import sys
from urllib.parse import parse_qsl

import requests
from authlib.integrations.requests_client import OAuth1Session

env = os.environ
ca = env["CONFORM_CA_FILE"]
user = env["CONFORM_USER"]
method = sys.argv[1]
key = env["CONFORM_OAUTH1_CONSUMER_KEY"]
secret = env["CONFORM_OAUTH1_CONSUMER_SECRET"]

session = OAuth1Session(key, secret, redirect_uri="oob", signature_method=method)
temporary = session.fetch_request_token(env["CONFORM_OAUTH1_REQUEST_TOKEN_URL"], verify=ca)
approval = requests.get(
    env["CONFORM_OAUTH1_AUTHORIZE_URL"],
    params={"oauth_token": temporary["oauth_token"]},
    auth=(user, env["CONFORM_PASSWORD"]),
    verify=ca,
)
approval.raise_for_status()
verifier = dict(parse_qsl(approval.text))["oauth_verifier"]
session.fetch_access_token(env["CONFORM_OAUTH1_ACCESS_TOKEN_URL"], verifier=verifier, verify=ca)
answer = session.get(f"{env['CONFORM_HTTPS_URL']}/users/{user}/financialrecords", params={"q": "a b"}, verify=ca)
answer.raise_for_status()
print(f"authlib oauth1 ({method}): {answer.status_code}")
