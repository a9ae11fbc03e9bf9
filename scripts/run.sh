#!/usr/bin/env bash
# The README's main command: installs what is missing, builds gestured, and runs the main
# job. On a machine with a touchscreen or touchpad it watches the first one
# (gestured --dry-run); without touch hardware it replays the bundled recording through the
# real daemon path (gestured --demo: socket, configuration, engine, a socket client).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup-deps.sh
swift build -c release --product gestured >&2
swift build -c release --product gesturectl >&2
bin="$(swift build -c release --show-bin-path)"
node=""
for dev in /sys/class/input/event*; do
  [ -e "$dev" ] || continue
  name="$(basename "$dev")"
  props="$(udevadm info --query=property --name="/dev/input/$name" 2>/dev/null || true)"
  if grep -qE '^ID_INPUT_(TOUCHSCREEN|TOUCHPAD)=1' <<<"$props"; then node="/dev/input/$name"; break; fi
done
if [ -n "$node" ] && [ "${GESTURED_FORCE_DEMO:-0}" != 1 ]; then
  echo "gestured: touch device found: $node (Ctrl-C to stop)" >&2
  exec "$bin/gestured" --dry-run "$node" --config config/gestured.conf "$@"
fi
echo "gestured: no touch hardware found; running the bundled demo through the daemon" >&2
exec "$bin/gestured" --demo --config config/gestured.conf "$@"
