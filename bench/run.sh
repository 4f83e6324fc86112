#!/bin/sh
# Reproduces every figure in BENCHMARKS.md with one command:
#
#   bench/run.sh                      # results in bench/results.md
#   bench/run.sh -out /tmp/r.md       # any mcpbench flag can be added
#
# It installs the pinned mcp-graphql from bench/peer/package-lock.json, then
# runs the driver, which builds ./cmd/server and ./cmd/appsync-local, starts
# the backends on 127.0.0.1, waits for a quiet machine, measures, and stops
# everything it started (also on error or Ctrl-C).
set -eu
cd "$(dirname "$0")/.."
npm ci --prefix bench/peer --no-audit --no-fund --loglevel=error
exec go run ./bench/cmd/mcpbench -out bench/results.md "$@"
