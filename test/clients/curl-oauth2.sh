#!/bin/sh
# An OAuth 2 client made of curl for `conform check-client` tests. `curl-oauth2.sh good`: the client credentials
# grant with HTTP Basic over TLS (RFC 6749 §2.3.1, §4.4), then the token as Authorization: Bearer (RFC 6750 §2.1).
# `curl-oauth2.sh wrong`: the client secret in the token request's URI, Basic and a client_secret parameter at once,
# the token in the query, and a bearer request over plain HTTP.
set -eu
ca="$CONFORM_CA_FILE"
records="/users/$CONFORM_USER/financialrecords"
id="$CONFORM_OAUTH2_CLIENT_ID"
secret="$CONFORM_OAUTH2_CLIENT_SECRET"
token_of() { sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p'; }
token=$(curl -sS --fail --cacert "$ca" -u "$id:$secret" -d grant_type=client_credentials "$CONFORM_OAUTH2_TOKEN_URL" | token_of)
if [ "${1:-good}" = good ]; then
  curl -sS --fail --cacert "$ca" -o /dev/null -H "Authorization: Bearer $token" "$CONFORM_HTTPS_URL$records"
else
  curl -sS --cacert "$ca" -o /dev/null -d grant_type=client_credentials "$CONFORM_OAUTH2_TOKEN_URL?client_id=$id&client_secret=$secret"
  curl -sS --cacert "$ca" -o /dev/null -u "$id:$secret" -d "grant_type=client_credentials&client_secret=$secret" "$CONFORM_OAUTH2_TOKEN_URL"
  curl -sS --cacert "$ca" -o /dev/null "$CONFORM_HTTPS_URL$records?access_token=$token"
  curl -sS -o /dev/null -H "Authorization: Bearer $token" "$CONFORM_HTTP_URL$records"
fi
echo "oauth2 client done"
