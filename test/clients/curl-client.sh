#!/bin/sh
# A correct client made of curl and openssl for `conform check-client` tests: Basic over TLS, then two date-and-nonce
# signed requests (docs/auth.md) with distinct nonces, the digest computed by openssl.
set -eu
records="/users/$CONFORM_USER/financialrecords"
curl -sS --fail --cacert "$CONFORM_CA_FILE" -u "$CONFORM_USER:$CONFORM_PASSWORD" -o /dev/null "$CONFORM_HTTPS_URL$records"
date_header=$(LC_ALL=C date -u '+%d %b %Y %H:%M:%S')
date_text=$(printf '%s' "$date_header" | tr -d ' ' | tr 'A-Z' 'a-z')
base=$(date -u '+%s')
for i in 1 2; do
  nonce="$base$i"
  digest=$(printf '%s' "GET+$records+$date_text+$nonce" | openssl dgst -sha256 -hmac "$CONFORM_SECRET" -binary | openssl base64 -A)
  curl -sS --fail --cacert "$CONFORM_CA_FILE" -o /dev/null \
    -H "Authentication: hmac $CONFORM_USER:$nonce:$digest" -H "Date: $date_header" "$CONFORM_HTTPS_URL$records"
done
echo "curl client done"
