#!/bin/sh
# with_llama_server.sh LLAMA_SERVER MODEL PROGRAM [ARGS...]
# Starts llama.cpp's llama-server with MODEL on a free loopback port (one thread), runs PROGRAM
# with OPENAI_BASE_URL pointing at it, stops the server, and exits with PROGRAM's status.
set -eu
. "$(dirname "$0")/wait_for_log.sh"
server=$1 model=$2 program=$3
shift 3
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$server" -m "$model" --host 127.0.0.1 --port "$port" -t 1 -np 1 >"$dir/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
wait_for_log "$dir/log" "listening on" llama-server
status=0
OPENAI_BASE_URL="http://127.0.0.1:$port/v1" "$program" "$@" || status=$?
exit $status
