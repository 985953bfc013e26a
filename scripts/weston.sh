# Sourced by scripts/test, scripts/wayland and .ci/run: a headless weston compositor (no seat, no
# GPU: its pixman renderer, and Mesa renders its clients in software), and what it takes.

# The Debian packages a Wayland run needs: the compositor, Mesa's EGL in software, and libdecor's
# cairo plugin. SDL decorates its windows with libdecor where the compositor draws no decorations
# (weston, GNOME), and a desktop always has a plugin (libdecor recommends one); without any, SDL
# 3.4's SDL_CreateWindow hung now and then (docs/window.md#headless-runs-and-tests).
wayland_packages=(weston libgl1-mesa-dri libegl1 libegl-mesa0 libdecor-0-plugin-1-cairo)

# start_weston <socket> <log>: starts one on $XDG_RUNTIME_DIR/<socket> (XDG_RUNTIME_DIR must be
# set, mode 0700), logging to <log>, and returns once it accepts clients (30 s at most); its
# process id is in weston_pid. Returns non-zero, with its log on stderr, if it did not start
# (and stops it).
start_weston() {
  local socket=$1 log=$2
  # A socket and lock that a killed compositor left would pass for this one's.
  rm -f "$XDG_RUNTIME_DIR/$socket" "$XDG_RUNTIME_DIR/$socket.lock"
  weston --backend=headless --renderer=pixman --socket="$socket" --width=1280 --height=800 --idle-time=0 \
    > "$log" 2>&1 &
  weston_pid=$!
  for _ in $(seq 300); do
    if [ -S "$XDG_RUNTIME_DIR/$socket" ]; then return 0; fi
    if ! kill -0 "$weston_pid" 2>/dev/null; then break; fi  # it ended
    sleep 0.1
  done
  kill "$weston_pid" 2>/dev/null || true
  echo "weston did not start (30 s at most):" >&2
  cat "$log" >&2
  return 1
}
