#!/usr/bin/env bash
# Run by `make test`: static checks, then pytest against a real Neo4j.
# Starts a dedicated local Neo4j (port 7688, data under .graphmem/test) unless NEO4J_URI is set,
# and stops it afterwards if it started it. pytest's exit 5 (no tests collected) is a failure.
set -uo pipefail
BIN="${VENV:-.venv}/bin"

"$BIN/ruff" check graphmem ingest api eval graphmem_cli graphmem_adapters tests || exit 1
"$BIN/mypy" || exit 1
"$BIN/lint-imports" --no-cache || exit 1

started=0
if [ -z "${NEO4J_URI:-}" ]; then
  export GRAPHMEM_HOME="${GRAPHMEM_HOME:-.graphmem/test}"
  export GRAPHMEM_NEO4J_PORT="${GRAPHMEM_NEO4J_PORT:-7688}"
  export GRAPHMEM_NEO4J_HTTP_PORT="${GRAPHMEM_NEO4J_HTTP_PORT:-7475}"  # beside a `make run` on 7474
  if ! "$BIN/graphmem" neo4j status | grep -q "bolt answers"; then
    "$BIN/graphmem" neo4j start || exit 1
    started=1
  fi
  export NEO4J_URI="bolt://127.0.0.1:${GRAPHMEM_NEO4J_PORT}"
fi

"$BIN/python" -m pytest -q -p no:cacheprovider --durations=25 "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  rc=1
fi

if [ "$started" -eq 1 ]; then
  env -u NEO4J_URI "$BIN/graphmem" neo4j stop
fi
exit "$rc"
