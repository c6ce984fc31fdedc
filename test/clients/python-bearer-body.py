"""A bearer token in the body of a GET over plain HTTP, for `conform check-client` tests (issue 36, item 1).

`python-bearer-body.py requests-oauthlib|authlib`: the library fetches a token with the client credentials grant over
TLS, then sends a GET to the records over plain HTTP with the token placed in the body ("body" placement: both
libraries write `access_token=…` into the body with no form Content-Type). Two mistakes a client author can make
without noticing: a token in clear, and a body token where RFC 6750 §2.2 forbids it (GET). Needs Debian's
python3-requests-oauthlib or python3-authlib.
"""
import os
import sys

env = os.environ
ca = env["CONFORM_CA_FILE"]
records = f"{env['CONFORM_HTTP_URL']}/users/{env['CONFORM_USER']}/financialrecords"
client_id = env["CONFORM_OAUTH2_CLIENT_ID"]
client_secret = env["CONFORM_OAUTH2_CLIENT_SECRET"]
token_url = env["CONFORM_OAUTH2_TOKEN_URL"]

if sys.argv[1] == "authlib":
    from authlib.integrations.requests_client import OAuth2Session

    session = OAuth2Session(client_id, client_secret, token_placement="body")
    session.fetch_token(token_url, grant_type="client_credentials", verify=ca)
else:
    # oauthlib refuses http:// unless told otherwise; a client author testing against a local server tells it so.
    os.environ["OAUTHLIB_INSECURE_TRANSPORT"] = "1"
    from oauthlib.oauth2 import BackendApplicationClient
    from requests_oauthlib import OAuth2Session

    session = OAuth2Session(client=BackendApplicationClient(client_id=client_id, default_token_placement="body"))
    session.fetch_token(token_url, client_id=client_id, client_secret=client_secret, verify=ca)

answer = session.get(records)
print(f"{sys.argv[1]} body token over http: {answer.status_code}")
