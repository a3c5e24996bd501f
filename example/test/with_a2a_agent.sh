#!/bin/sh
# with_a2a_agent.sh NODE NPM_DIR AGENT_SCRIPT PROGRAM [ARGS...]
# Starts the A2A test agent on a free port, runs `PROGRAM <its URL> ARGS...`, stops the agent,
# and exits with PROGRAM's status.
set -eu
node=$1 npm_dir=$2 agent=$3 program=$4
shift 4
dir=$(mktemp -d)
mkfifo "$dir/stderr"
PORT=0 FORMA_NPM_DIR=$npm_dir "$node" "$agent" 2>"$dir/stderr" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
exec 3<"$dir/stderr"
url=
# It says "forma a2a test agent: <base>/a2a/jsonrpc, listening on port <n>" once it listens.
while IFS= read -r line <&3; do
  case $line in
    *"listening on port"*) url=${line#*: }; url=${url%%,*}; url=${url%/a2a/jsonrpc}; break ;;
    *) echo "$line" >&2 ;;
  esac
done
[ -n "$url" ] || { echo "the A2A test agent did not start" >&2; exit 1; }
cat <&3 >/dev/null & # keeps its stderr drained
status=0
"$program" "$url" "$@" || status=$?
exit $status
