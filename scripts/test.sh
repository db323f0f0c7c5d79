#!/usr/bin/env bash
# Run by `make test`: static checks, then pytest against a real Neo4j.
# Starts a dedicated local Neo4j (port 7688, data under .graphmem/test) unless NEO4J_URI is set,
# and stops it afterwards if it started it. pytest's exit 5 (no tests collected) is a failure. With no
# arguments the unit and property tests run in a second pytest process beside the rest.
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

pytest=("$BIN/python" -m pytest -q -p no:cacheprovider)
checked() {  # pytest's exit status, with 5 (no tests collected) turned into a failure
  if [ "$1" -eq 5 ]; then echo "pytest collected no tests: failing" >&2; return 1; fi
  return "$1"
}
if [ "$#" -gt 0 ]; then
  "${pytest[@]}" --durations=25 "$@"
  checked $?; rc=$?
else
  # Two pytest processes, one per core: the database-free unit and property tests (CPU-bound
  # Python) run beside the rest, which spends much of its time waiting on Neo4j, API processes
  # and subprocesses. The unit run's report is printed after the other's.
  unit_log="$(mktemp)"
  "${pytest[@]}" --durations=10 tests/unit tests/property >"$unit_log" 2>&1 &
  unit_pid=$!
  trap 'kill "$unit_pid" 2>/dev/null; rm -f "$unit_log"' EXIT
  "${pytest[@]}" --durations=25 --ignore=tests/unit --ignore=tests/property
  checked $?; rc=$?
  wait "$unit_pid"
  unit_rc=$?
  echo "---- tests/unit and tests/property (run beside the tests above) ----"
  cat "$unit_log"
  checked "$unit_rc"; unit_rc=$?
  if [ "$rc" -eq 0 ]; then rc=$unit_rc; fi
fi

if [ "$started" -eq 1 ]; then
  env -u NEO4J_URI "$BIN/graphmem" neo4j stop
fi
exit "$rc"
