#!/bin/sh
# A fuzz CTest run: the target with its arguments ($1 is the binary, $2 its artifact folder).
# On a finding, each artifact is printed in base64 too, so that an input found on a machine
# whose files are gone (a CI run) can be rebuilt from the log: base64 -d > input.
target=$1; artifacts=$2; shift 2
"$target" "$@" && exit 0
status=$?
for f in "$artifacts"/*; do
  [ -f "$f" ] || continue
  echo "fuzz finding $(basename "$f"), base64:"
  base64 -w0 "$f"; echo
done
exit $status
