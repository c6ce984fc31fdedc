#!/usr/bin/env bash
# Smoke test: starts the server on free ports with a throw-away certificate, exercises every feature once,
# checks the answers and stops the server. Needs only bash, curl and openssl (plus ruby to run the server).
set -u
export LC_ALL=C
DIR="$(cd "$(dirname "$0")" && pwd)"
TMP="$(mktemp -d)"
PID=""
PASS=0
FAIL=0

cleanup() {
  [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT

ok() { PASS=$((PASS + 1)); echo "ok   - $1"; }
ko() { FAIL=$((FAIL + 1)); echo "FAIL - $1${2:+ ($2)}"; }
check() { # check NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then ok "$1"; else ko "$1" "expected '$2', got '$3'"; fi
}
contains() { # contains NAME NEEDLE HAYSTACK
  case "$3" in *"$2"*) ok "$1" ;; *) ko "$1" "'$2' not in: $(printf '%s' "$3" | head -c 300)" ;; esac
}

# ---------------------------------------------------------------- start the server
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/key.pem" -out "$TMP/cert.pem" -days 1 \
  -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1,DNS:localhost >/dev/null 2>&1 || { echo "openssl failed"; exit 1; }
env -u DEFECT BIND=127.0.0.1 HTTP_PORT=0 HTTPS_PORT=0 TLS_CERT="$TMP/cert.pem" TLS_KEY="$TMP/key.pem" \
  CONFIG="$DIR/example-config.json" ruby "$DIR/server.rb" >"$TMP/out" 2>"$TMP/err" &
PID=$!
for _ in $(seq 100); do grep -q '^READY ' "$TMP/out" && break; sleep 0.1; done
read -r READY H S <"$TMP/out" || true
if [ "${READY:-}" != READY ]; then echo "server did not start:"; cat "$TMP/err"; exit 1; fi
echo "# server: $H $S"

C=(curl -s --cacert "$TMP/cert.pem" --max-time 10)
code() { "${C[@]}" -o /dev/null -w '%{http_code}' "$@"; }
hdr() { # hdr NAME curl-args... : value of one response header
  local name=$1; shift
  "${C[@]}" -o /dev/null -D - "$@" | tr -d '\r' | awk -v n="$(printf '%s' "$name" | tr A-Z a-z)" \
    'BEGIN{FS=": "} tolower($1)==n {sub(/^[^:]*: /,""); print; exit}'
}
b64hmac256() { printf '%s' "$2" | openssl dgst -sha256 -hmac "$1" -binary | openssl base64 -A; }
XML='Content-Type: application/xml'
ART='<?xml version="1.0" encoding="UTF-8"?><article><title>Smoke</title><price currency="eur">12.50</price></article>'
ART2='<article><title>Smoke v2</title><price currency="usd">13.00</price></article>'

# ---------------------------------------------------------------- articles + OPTIONS + Basic
check "GET /articles is public (plain HTTP)" 200 "$(code "$H/articles")"
check "OPTIONS unauthenticated: short Allow" "GET, HEAD, OPTIONS" "$(hdr Allow -X OPTIONS "$H/articles/smoke")"
check "OPTIONS with Basic over TLS: long Allow" "GET, HEAD, PUT, DELETE, OPTIONS" \
  "$(hdr Allow -X OPTIONS -u alice:alice-password "$S/articles/smoke")"
check "OPTIONS collection with Basic" "GET, HEAD, POST, OPTIONS" "$(hdr Allow -X OPTIONS -u alice:alice-password "$S/articles")"
check "Basic over plain HTTP is refused" 403 "$(code -u alice:alice-password "$H/articles")"
check "Basic with wrong password" 401 "$(code -u alice:nope "$S/")"
check "PUT without credentials" 401 "$(code -X PUT -H "$XML" --data "$ART" "$S/articles/smoke")"
check "PUT creates at client-chosen URL: 201" 201 "$(code -X PUT -u alice:alice-password -H "$XML" --data "$ART" "$S/articles/smoke")"
check "PUT create: Location" /articles/smoke2 \
  "$(hdr Location -X PUT -u alice:alice-password -H "$XML" --data "$ART" "$S/articles/smoke2")"
check "PUT on singular /article/<id> replaces: 200" 200 "$(code -X PUT -u alice:alice-password -H "$XML" --data "$ART2" "$S/article/smoke")"
E1=$(hdr ETag -X PUT -u alice:alice-password -H "$XML" --data "$ART2" "$S/articles/smoke")
check "PUT is idempotent (same ETag when repeated)" "$E1" "$(hdr ETag "$S/articles/smoke")"
BODY=$("${C[@]}" "$S/articles/smoke")
contains "GET shows the replaced title" "<title>Smoke v2</title>" "$BODY"
contains "GET shows the replaced price" '<price currency="usd">13.00</price>' "$BODY"
check "PUT with missing price is rejected" 400 \
  "$(code -X PUT -u alice:alice-password -H "$XML" --data '<article><title>x</title></article>' "$S/articles/smoke")"
check "XML with DOCTYPE/entities is rejected" 400 "$(code -X PUT -u alice:alice-password -H "$XML" \
  --data '<!DOCTYPE article [<!ENTITY x "boom">]><article><title>&x;</title><price currency="eur">1.00</price></article>' \
  "$S/articles/smoke")"
check "Wrong media type: 415" 415 "$(code -X PUT -u alice:alice-password -H 'Content-Type: text/plain' --data "$ART" "$S/articles/smoke")"
LOC=$(hdr Location -X POST -u alice:alice-password -H "$XML" --data "$ART" "$S/articles")
case "$LOC" in /articles/?*) ok "POST /articles: Location $LOC" ;; *) ko "POST /articles Location" "$LOC" ;; esac
check "GET the POSTed article" 200 "$(code "$S$LOC")"
check "DELETE article" 204 "$(code -X DELETE -u alice:alice-password "$S$LOC")"
check "GET deleted article" 404 "$(code "$S$LOC")"

# ---------------------------------------------------------------- HMAC signed requests (plain HTTP allowed)
P=/users/alice/financialrecords
D=$(b64hmac256 alice-hmac-secret "GET+$P")
BODY=$("${C[@]}" -H "Authentication: hmac alice:$D" "$H$P")
contains "HMAC simple form: records" '<financialrecords owner="alice"' "$BODY"
check "HMAC simple form bound to the verb" 401 "$(code -X DELETE -H "Authentication: hmac alice:$D" "$H$P")"
DB=$(b64hmac256 alice-hmac-secret "GET+/users/bob/financialrecords")
check "HMAC: alice may not read bob's records" 403 "$(code -H "Authentication: hmac alice:$DB" "$H/users/bob/financialrecords")"
DATE=$(date -u '+%d %b %Y %H:%M:%S')
DT=$(printf '%s' "$DATE" | tr -d ' ' | sed -E 's/([0-9])([A-Za-z]{3})([0-9])/\1\L\2\E\3/')
NONCE="$(date +%s)$RANDOM"
D=$(b64hmac256 alice-hmac-secret "GET+$P+$DT+$NONCE")
check "HMAC date+nonce form" 200 "$(code -H "Date: $DATE" -H "Authentication: hmac alice:$NONCE:$D" "$H$P")"
check "HMAC date+nonce replay refused" 401 "$(code -H "Date: $DATE" -H "Authentication: hmac alice:$NONCE:$D" "$H$P")"
OLD="01 Jan 2020 10:00:00"
D=$(b64hmac256 alice-hmac-secret "GET+$P+01jan202010:00:00+${NONCE}x")
check "HMAC date outside window refused" 401 "$(code -H "Date: $OLD" -H "Authentication: hmac alice:${NONCE}x:$D" "$H$P")"
D=$(b64hmac256 carol-hmac-secret "GET+/users/bob/financialrecords")
check "HMAC: auditor carol reads bob's records" 200 "$(code -H "Authentication: hmac carol:$D" "$H/users/bob/financialrecords")"
check "records without credentials: 401" 401 "$(code "$H$P")"

# ---------------------------------------------------------------- OAuth 2
check "OAuth 2 token endpoint refused over plain HTTP" 403 "$(code -d grant_type=client_credentials "$H/oauth2/token")"
TOK=$("${C[@]}" -u demo-client:demo-client-secret -d grant_type=password -d username=alice -d password=alice-password "$S/oauth2/token")
AT=$(printf '%s' "$TOK" | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
RT=$(printf '%s' "$TOK" | sed -n 's/.*"refresh_token":"\([^"]*\)".*/\1/p')
contains "OAuth 2 password grant" '"token_type":"Bearer"' "$TOK"
check "Bearer token reads records" 200 "$(code -H "Authorization: Bearer $AT" "$S$P")"
check "Bearer token refused over plain HTTP" 403 "$(code -H "Authorization: Bearer $AT" "$H$P")"
check "Bearer token: Allow includes PUT" "GET, HEAD, PUT, DELETE, OPTIONS" \
  "$(hdr Allow -X OPTIONS -H "Authorization: Bearer $AT" "$S/articles/smoke")"
check "Unknown bearer token" 401 "$(code -H "Authorization: Bearer nope" "$S$P")"
TOK2=$("${C[@]}" -u demo-client:demo-client-secret -d grant_type=refresh_token -d "refresh_token=$RT" "$S/oauth2/token")
contains "OAuth 2 refresh grant" '"access_token"' "$TOK2"
check "refresh token is single-use" 400 "$(code -u demo-client:demo-client-secret -d grant_type=refresh_token -d "refresh_token=$RT" "$S/oauth2/token")"
CC=$("${C[@]}" -u demo-client:demo-client-secret -d grant_type=client_credentials "$S/oauth2/token")
CAT=$(printf '%s' "$CC" | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
check "client_credentials token may write articles" 201 \
  "$(code -X PUT -H "Authorization: Bearer $CAT" -H "$XML" --data "$ART" "$S/articles/by-client")"
check "client_credentials token may not read records" 403 "$(code -H "Authorization: Bearer $CAT" "$S$P")"
check "wrong client secret" 401 "$(code -u demo-client:nope -d grant_type=client_credentials "$S/oauth2/token")"

# ---------------------------------------------------------------- OAuth 1.0a (HMAC-SHA1, computed with openssl)
pct() { local s=$1 o="" c i; for ((i = 0; i < ${#s}; i++)); do c=${s:i:1}
  case "$c" in [A-Za-z0-9._~-]) o+="$c" ;; *) o+=$(printf '%%%02X' "'$c") ;; esac; done; printf '%s' "$o"; }
oauth1() { # oauth1 METHOD URL TOKEN TOKEN_SECRET [extra k=v (values unreserved)...] -> Authorization header value
  local method=$1 url=$2 tok=$3 tsec=$4; shift 4
  local nonce ts params base sig h p
  nonce="n$(date +%s%N)$RANDOM"; ts=$(date +%s)
  params=("oauth_consumer_key=demo-consumer" "oauth_nonce=$nonce" "oauth_signature_method=HMAC-SHA1"
          "oauth_timestamp=$ts" "oauth_version=1.0" "$@")
  [ -n "$tok" ] && params+=("oauth_token=$tok")
  base="$method&$(pct "$url")&$(pct "$(printf '%s\n' "${params[@]}" | sort | paste -sd'&' -)")"
  sig=$(printf '%s' "$base" | openssl dgst -sha1 -hmac "demo-consumer-secret&$tsec" -binary | openssl base64 -A)
  h='OAuth realm="article-service"'
  for p in "${params[@]}"; do h+=", ${p%%=*}=\"${p#*=}\""; done
  printf '%s, oauth_signature="%s"' "$h" "$(pct "$sig")"
}
formval() { printf '%s' "$2" | tr '&' '\n' | sed -n "s/^$1=//p"; }
U="$S/oauth1/request_token"
R=$("${C[@]}" -X POST -H "Authorization: $(oauth1 POST "$U" "" "" oauth_callback=oob)" "$U")
RTOK=$(formval oauth_token "$R"); RSEC=$(formval oauth_token_secret "$R")
contains "OAuth 1 temporary credentials" "oauth_callback_confirmed=true" "$R"
A=$("${C[@]}" -u alice:alice-password "$S/oauth1/authorize?oauth_token=$RTOK")
VER=$(formval oauth_verifier "$A")
[ -n "$VER" ] && ok "OAuth 1 resource owner authorization (oob verifier)" || ko "OAuth 1 authorize" "$A"
U="$S/oauth1/access_token"
R=$("${C[@]}" -X POST -H "Authorization: $(oauth1 POST "$U" "$RTOK" "$RSEC" "oauth_verifier=$VER")" "$U")
ATOK=$(formval oauth_token "$R"); ASEC=$(formval oauth_token_secret "$R")
[ -n "$ATOK" ] && [ -n "$ASEC" ] && ok "OAuth 1 token credentials" || ko "OAuth 1 access token" "$R"
U="$S$P"
HDR=$(oauth1 GET "$U" "$ATOK" "$ASEC")
check "OAuth 1 signed request reads records" 200 "$(code -H "Authorization: $HDR" "$U")"
check "OAuth 1 nonce replay refused" 401 "$(code -H "Authorization: $HDR" "$U")"
check "OAuth 1 wrong token secret" 401 "$(code -H "Authorization: $(oauth1 GET "$U" "$ATOK" wrong)" "$U")"

# ---------------------------------------------------------------- protected root, misc
D=$(b64hmac256 bob-hmac-secret "GET+/")
contains "GET / (protected) with HMAC" "<authenticated-as scheme=\"hmac\">bob</authenticated-as>" \
  "$("${C[@]}" -H "Authentication: hmac bob:$D" "$H/")"
check "GET / without credentials" 401 "$(code "$S/")"
check "unknown path" 404 "$(code "$S/nope")"
check "unsupported method" 405 "$(code -X PATCH "$S/articles/smoke")"

# ---------------------------------------------------------------- stop
kill -TERM "$PID"
STOPPED=no
for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || { STOPPED=yes; break; }; sleep 0.1; done
wait "$PID" 2>/dev/null
RC=$?
PID=""
check "server stops on SIGTERM" yes "$STOPPED"
check "server exit status 0" 0 "$RC"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
