#!/bin/sh
# Owns the smoke test of the stack in containers (compose.yaml; issue #41), for a person or CI: it
# brings the stack up under its own project name, then checks, through the proxy on
# 127.0.0.1:$SANGAM_PORT, that
#   1. /health answers, and both replicas serve (round robin);
#   2. an account and a sandbox key made with the CLI inside a replica work: a sandbox
#      mobile-to-bank-account call succeeds, and the rate-limit buckets live in Redis;
#   3. with one replica killed, every call still answers 200 (HAProxy retries on the other);
#   4. after `down` and `up`, the transaction and the key are still there (the named volume);
#   5. with LIVE=1, compose.live.yaml too: a live UPI payment to the partner simulator goes pending,
#      then success by the simulator's signed callback.
# Then it removes everything it made (containers, volume, network) unless KEEP=1.
# Images: as named by SANGAM_IMAGE, POSTGRES_IMAGE, … (on a machine without registries,
# `eval "$(deploy/offline-images.sh)"` first). COMPOSE (default podman-compose) and ENGINE (default
# podman) pick the tools; PROJECT (sangam-smoke) and SANGAM_PORT (18080) where it runs.
set -eu

cd "$(dirname "$0")/.."
COMPOSE=${COMPOSE:-podman-compose}
ENGINE=${ENGINE:-podman}
PROJECT=${PROJECT:-sangam-smoke}
export SANGAM_PORT=${SANGAM_PORT:-18080}
API=http://127.0.0.1:$SANGAM_PORT
files="-f compose.yaml"
if [ "${LIVE:-0}" = 1 ]; then
  files="$files -f compose.live.yaml"
  export SANGAM_PARTNER_SECRET="${SANGAM_PARTNER_SECRET:-whsec_$(head -c 24 /dev/urandom | base64)}"
fi

say() { printf '== %s\n' "$*" >&2; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
compose() { $COMPOSE -p "$PROJECT" $files "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$COMPOSE $*"; }; }
container() { $ENGINE ps -a --format '{{.Names}}' --filter "label=com.docker.compose.project=$PROJECT" --filter "label=com.docker.compose.service=$1" | head -n 1; }
# The CLI inside replica 1; its output is one JSON object, read with the container's own node.
cli() { $ENGINE exec "$(container sangam-1)" sangam "$@"; }
field() { $ENGINE exec -i "$(container sangam-1)" node -pe "JSON.parse(require('fs').readFileSync(0)).$1"; }
call() { # METHOD PATH KEY [BODY] -> prints "STATUS BODY"
  curl -s -m 20 -o "$log.body" -w '%{http_code}' -X "$1" "$API$2" -H "Authorization: Bearer $3" ${4:+-H 'Content-Type: application/json' -d "$4"}
  printf ' %s\n' "$(cat "$log.body")"
}
# After an `up`, a replica answers /health before its own name lookups settle (EAI_AGAIN for postgres
# was seen on a loaded machine, after either `up`): wait until the CLI inside it reaches the store.
wait_cli() {
  i=0
  until cli ledger check >/dev/null 2>&1; do
    i=$((i + 1)); [ "$i" -lt 30 ] || fail "the CLI inside sangam-1 cannot reach the store after 30 s"; sleep 1
  done
}
# The same for the partner simulator's name and port, seen from inside each replica (the proxy may
# send the live call to either), before a live call: one that cannot reach the partner fails unsent
# (504, nothing debited), as it should.
wait_partner() {
  for s in sangam-1 sangam-2; do
    i=0
    until $ENGINE exec "$(container $s)" node -e "fetch('http://partner-sim:9090/').then(() => process.exit(0), () => process.exit(1))" >/dev/null 2>&1; do
      i=$((i + 1)); [ "$i" -lt 30 ] || fail "$s cannot reach partner-sim:9090 after 30 s"; sleep 1
    done
  done
}
wait_healthy() {
  i=0
  until curl -sf -m 2 "$API/health" >/dev/null; do
    i=$((i + 1)); [ "$i" -lt 120 ] || fail "no healthy answer through the proxy after 120 s"; sleep 1
  done
  say "healthy through the proxy after ${i} s"
}
cleanup() {
  [ "${KEEP:-0}" = 1 ] && return
  $COMPOSE -p "$PROJECT" $files down >/dev/null 2>&1 || true
  $ENGINE volume rm -f "${PROJECT}_pgdata" >/dev/null 2>&1 || true
  $ENGINE network rm -f "${PROJECT}_default" >/dev/null 2>&1 || true
  rm -f "$log" "$log.body"
}
log=$(mktemp)
trap cleanup EXIT

say "up ($PROJECT, port $SANGAM_PORT)"
start=$(date +%s)
compose up -d
wait_healthy
say "stack answering $(( $(date +%s) - start )) s after up"

wait_cli
say "account and sandbox key with the CLI inside $(container sangam-1)"
account=$(cli accounts create --name "Smoke Test" | field id)
key=$(cli keys create --account "$account" --env sandbox | field key)
for i in 1 2 3 4; do
  out=$(call POST /api/v1/bank-account/mobile-to-bank-account "$key" "{\"reference_id\":\"smoke-$i\",\"consent\":true,\"mobile\":\"9876543210\"}")
  case $out in 200*'"status":"success"'*) ;; *) fail "sandbox call $i: $out" ;; esac
done
for s in sangam-1 sangam-2; do
  $ENGINE logs "$(container $s)" 2>&1 | grep -q '"url":"/api/v1/bank-account/mobile-to-bank-account"' || fail "replica $s served no call"
done
[ "$($ENGINE exec "$(container redis)" redis-cli dbsize)" -gt 0 ] || fail "no rate-limit bucket in Redis"
say "sandbox calls: 200 success, served by both replicas, buckets in Redis"

say "kill sangam-1; calls go on"
$ENGINE kill "$(container sangam-1)" >/dev/null
t0=$(date +%s)
for i in 1 2 3 4 5 6 7 8 9 10; do
  out=$(call POST /api/v1/bank-account/mobile-to-bank-account "$key" "{\"reference_id\":\"kill-$i\",\"consent\":true,\"mobile\":\"9876543211\"}")
  case $out in 200*) ;; *) fail "call $i with a replica killed: $out" ;; esac
done
say "10 calls with sangam-1 killed: all 200 in $(( $(date +%s) - t0 )) s"

say "down, up: the data stays"
compose down
compose up -d
wait_healthy
out=$(call GET /api/v1/transactions/smoke-1 "$key")
case $out in 200*'"reference_id":"smoke-1"'*) ;; *) fail "after down/up: $out" ;; esac
say "after down and up, the key and transaction smoke-1 are there"

if [ "${LIVE:-0}" = 1 ]; then
  say "live: a UPI payment to the partner simulator"
  wait_cli
  wait_partner
  live=$(cli keys create --account "$account" --env live | field key)
  # The client address the replicas see: the proxy's X-Forwarded-For (the host's side of the network).
  gateway=$($ENGINE network inspect "${PROJECT}_default" --format '{{range .Subnets}}{{.Gateway}}{{end}}')
  cli allowlist add --account "$account" --env live "$gateway" >/dev/null
  cli approve --account "$account" --operation all >/dev/null
  cli wallet topup --account "$account" --amount 5000 >/dev/null
  out=$(call POST /api/v1/upi-payment/upi-payment-status "$live" "{\"reference_id\":\"live-1\",\"consent\":true,\"vpa\":\"pending@sandbox\",\"amount\":250,\"idempotency_key\":\"$(cat /proc/sys/kernel/random/uuid)\"}")
  case $out in 200*'"status":"pending"'*) ;; *) fail "live payment: $out" ;; esac
  i=0
  until call GET /api/v1/transactions/live-1 "$live" | grep -q '"status":"success"'; do
    i=$((i + 1)); [ "$i" -lt 60 ] || fail "live-1 not final after 60 s: $(call GET /api/v1/transactions/live-1 "$live")"; sleep 1
  done
  cli ledger check >/dev/null || fail "ledger check after the live payment"
  say "live payment pending, then success after ~${i} s (the simulator's callback through the proxy); ledger balanced"
fi

say "smoke test passed"
