#!/bin/sh
# Container entry point: apply migrations (retrying while the database starts), then run the
# command (`lair serve` by default: app/serve.py). Tested outside Docker by tests/app/ops/test_deploy.py.
set -eu
tries="${MIGRATE_TRIES:-30}"
i=1
until alembic upgrade head; do
  if [ "$i" -ge "$tries" ]; then
    echo "entrypoint: migrations failed after $tries attempts" >&2
    exit 1
  fi
  echo "entrypoint: database not ready (attempt $i/$tries); retrying in 2 s" >&2
  i=$((i + 1))
  sleep 2
done
# prometheus-client's multiprocess mode (several workers, one /metrics): start from an empty
# directory, or the counters of processes from before this start would count again.
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  rm -rf "$PROMETHEUS_MULTIPROC_DIR"
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
fi
exec "$@"
