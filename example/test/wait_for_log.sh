# wait_for_log LOG TEXT NAME: returns once LOG holds TEXT (within 30 s); else prints LOG, saying
# that NAME did not start, and exits 1. Sourced by the with_*.sh wrappers.
wait_for_log() {
  tries=0
  until grep -q "$2" "$1" 2>/dev/null; do
    tries=$((tries + 1))
    [ $tries -le 600 ] || { echo "$3 did not start:" >&2; cat "$1" >&2; exit 1; }
    sleep 0.05
  done
}
