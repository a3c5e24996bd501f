#!/bin/sh
# with_redis.sh REDIS_SERVER PROGRAM [ARGS...]
# Starts a redis-server on a free loopback port in a temporary directory, runs
# `PROGRAM redis://127.0.0.1:<port> ARGS...`, stops the server, and exits with PROGRAM's status.
set -eu
. "$(dirname "$0")/wait_for_log.sh"
server=$1 program=$2
shift 2
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$server" --bind 127.0.0.1 --port "$port" --dir "$dir" --save "" --daemonize no --logfile "$dir/log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
wait_for_log "$dir/log" "Ready to accept connections" redis-server
status=0
"$program" "redis://127.0.0.1:$port" "$@" || status=$?
exit $status
