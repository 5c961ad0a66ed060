#!/usr/bin/env bash
# Runs the Postman collection (dist/sangam.postman_collection.json, from `npm run openapi`) with newman
# against a sandbox server of its own, as a new user would: the built server on an embedded store in a
# fresh data directory, an account and a sandbox key made with the CLI, and only `baseUrl` and `apiKey`
# given to the collection. Exits with newman's status. Used by .ci/run (one check); also `npm run postman`.
set -uo pipefail
cd "$(dirname "$0")/.."

COLLECTION=dist/sangam.postman_collection.json
[ -f "$COLLECTION" ] || { echo "postman: $COLLECTION is missing: run npm run openapi"; exit 1; }

DATA=$(mktemp -d /tmp/sangam-postman.XXXXXX)
PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
SERVER=
stop() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
  rm -rf "$DATA"
}
trap stop EXIT

# The embedded store; webhook URLs are accepted without a DNS lookup (the collection registers one at
# example.com, and a sandbox run sends it nothing: every example succeeds at once, so no event fires).
export DATABASE_URL= SANGAM_DATA_DIR="$DATA" SANGAM_WEBHOOK_ALLOW_PRIVATE=1 LOG_LEVEL=warn
json_field() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s)['$1']))"; }
# A new store is made on purpose: the CLI never makes one by accident (README, Command line).
node bin/sangam.js migrate >/dev/null || exit 1
ACCOUNT=$(node bin/sangam.js accounts create --name "Postman run" | json_field id) || exit 1
KEY=$(node bin/sangam.js keys create --account "$ACCOUNT" --env sandbox | json_field key) || exit 1

PORT=$PORT HOST=127.0.0.1 node --enable-source-maps dist/src/server.js >"$DATA/server.log" 2>&1 &
SERVER=$!
BASE="http://127.0.0.1:$PORT"
# Ready when /health answers; a server that exits first (a port taken, a bad store) ends the wait.
node -e "
const until = Date.now() + 180000;
(async function poll() {
  try { if ((await fetch('$BASE/health')).ok) return; } catch {}
  try { process.kill($SERVER, 0); } catch { console.error('postman: the server exited'); process.exit(1); }
  if (Date.now() > until) { console.error('postman: the server did not answer in 180 s'); process.exit(1); }
  setTimeout(poll, 200);
})();" || { cat "$DATA/server.log"; exit 1; }

npx --no-install newman run "$COLLECTION" --env-var "baseUrl=$BASE" --env-var "apiKey=$KEY" --reporters cli --color off
status=$?
[ $status -eq 0 ] || tail -n 50 "$DATA/server.log"
exit $status
