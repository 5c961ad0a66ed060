#!/bin/sh
# Owns the start of the Debian-built PostgreSQL image (deploy/debian.Containerfile), after the official
# image's conventions: on an empty $PGDATA it creates the cluster with POSTGRES_USER (default postgres)
# and POSTGRES_PASSWORD, password authentication from any address, and the database POSTGRES_DB
# (default: the user's name); then it runs the server in the foreground. Other commands run as given.
set -eu
if [ "${1:-}" = postgres ]; then
  shift
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required to create the database}"
    user=${POSTGRES_USER:-postgres}
    db=${POSTGRES_DB:-$user}
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8
    rm -f "$pwfile"
    echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
    echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
      pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
      createdb -U "$user" "$db"
      pg_ctl -D "$PGDATA" -m fast -w stop
    fi
  fi
  exec postgres -D "$PGDATA" "$@"
fi
exec "$@"
