"""A client of the reference server made of Python requests and requests-oauthlib, for `conform check-client` tests.

Basic over TLS, OAuth 2 client credentials (RFC 6749 §4.4) then a bearer request, the OAuth 1.0a flow (RFC 5849:
temporary credentials, the owner's approval with Basic, token credentials) then a signed request. Needs
`apt-get install python3-requests python3-requests-oauthlib` (or pip install requests requests-oauthlib).
"""
import os
from urllib.parse import parse_qsl, urlparse

import requests
from oauthlib.oauth2 import BackendApplicationClient
from requests_oauthlib import OAuth1Session, OAuth2Session

env = os.environ
ca = env["CONFORM_CA_FILE"]
https = env["CONFORM_HTTPS_URL"]
user = env["CONFORM_USER"]
records = f"{https}/users/{user}/financialrecords"
basic = (user, env["CONFORM_PASSWORD"])

requests.get(records, auth=basic, verify=ca).raise_for_status()

client_id = env["CONFORM_OAUTH2_CLIENT_ID"]
oauth2 = OAuth2Session(client=BackendApplicationClient(client_id=client_id))
oauth2.fetch_token(
    env["CONFORM_OAUTH2_TOKEN_URL"],
    client_id=client_id,
    client_secret=env["CONFORM_OAUTH2_CLIENT_SECRET"],
    verify=ca,
)
oauth2.get(records, verify=ca).raise_for_status()

key = env["CONFORM_OAUTH1_CONSUMER_KEY"]
secret = env["CONFORM_OAUTH1_CONSUMER_SECRET"]
oauth1 = OAuth1Session(key, client_secret=secret, callback_uri="oob")
temporary = oauth1.fetch_request_token(env["CONFORM_OAUTH1_REQUEST_TOKEN_URL"], verify=ca)
approval = requests.get(
    env["CONFORM_OAUTH1_AUTHORIZE_URL"], params={"oauth_token": temporary["oauth_token"]}, auth=basic, verify=ca
)
approval.raise_for_status()
verifier = dict(parse_qsl(approval.text))["oauth_verifier"]
oauth1 = OAuth1Session(
    key,
    client_secret=secret,
    resource_owner_key=temporary["oauth_token"],
    resource_owner_secret=temporary["oauth_token_secret"],
    verifier=verifier,
)
tokens = oauth1.fetch_access_token(env["CONFORM_OAUTH1_ACCESS_TOKEN_URL"], verify=ca)
oauth1 = OAuth1Session(
    key,
    client_secret=secret,
    resource_owner_key=tokens["oauth_token"],
    resource_owner_secret=tokens["oauth_token_secret"],
)
oauth1.get(records, params={"q": "a b"}, verify=ca).raise_for_status()
print("python client done:", urlparse(https).scheme)
