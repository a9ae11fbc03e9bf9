#!/bin/sh
# Guest script (scripts/vm/run.sh): key actions without X11 or ydotool. The
# daemon runs as its unit runs it: not root (user gestured-daemon), with the
# supplementary groups input and gestured-uinput, which the project's udev
# rule gives /dev/uinput; with AllowInputForActiveSession=yes and no logind
# (so only root may inject). `libinput debug-events` watches seat0 as a compositor would,
# opening new devices when udev announces them. A uinput touchscreen is
# plugged in, `gesturectl run` (as root) runs an actions file whose
# three-finger swipe left presses super+Page_Up, and the swipe is played: the
# daemon creates its virtual keyboard on that first request and libinput must
# see the four transitions. A second swipe is read by `evemu-record` on the
# virtual keyboard itself (raw evdev). Then the same actions run as another
# user ("outsider", uid 992), and `gesturectl send-keys` as that user too:
# both are refused, and no key reaches the keyboard.
#
# Output, one fact a line (parsed by KeyInjectionTests.swift):
#   uinput mode <octal> group <name>          /dev/uinput after udev applied the rules
#   daemon uid N groups <gid>...              the daemon's credentials
#   touchscreen node /dev/input/eventN
#   keyboard node /dev/input/eventM           the daemon's virtual keyboard
#   keyboard name <name>
#   libinput key <KEY_NAME> <pressed|released>  KEYBOARD_KEY events of the keyboard
#   evdev key <code> <value>                  EV_KEY events evemu-record read (hex code)
#   evdev frames N                            SYN_REPORTs among them
#   root run <line>                           gesturectl run's stderr (root)
#   outsider run <line>                       gesturectl run's stderr (uid 992)
#   root click-exit N                          gesturectl click left as root
#   libinput button <BTN_NAME> <pressed|released>  POINTER_BUTTON events of the pointer
#   outsider send-keys-exit N
#   outsider send-keys <line>                 its stderr
#   daemon exit N
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"
devices=$GESTURED_REPO/Tests/EndToEndTests/Devices
desc=$devices/elan-touchscreen.desc
gesturectl=$(vm_tool gesturectl)
status=0

for db in group passwd; do
	cp "/etc/$db" "$VM_SCRATCH/$db"
done
echo "outsider:x:992:992::/nonexistent:/usr/sbin/nologin" >> "$VM_SCRATCH/passwd"
echo "gestured-daemon:x:993:993::/nonexistent:/usr/sbin/nologin" >> "$VM_SCRATCH/passwd"
# systemd/sysusers.d/gestured.conf's group; DynamicUser gets it from SupplementaryGroups=
echo "gestured-uinput:x:994:" >> "$VM_SCRATCH/group"
for db in group passwd; do
	mount --bind "$VM_SCRATCH/$db" "/etc/$db" || exit 1
done

config=$VM_SCRATCH/gestured.conf
cat > "$config" <<'CONF'
[Daemon]
AllowInputForActiveSession=yes
# the outsider must reach the socket to be refused by the daemon, not by the file mode
SocketMode=0666

[Gesture three-finger-swipe]
Kind=swipe
Fingers=3
Directions=left,right,up,down
CONF
actions=$VM_SCRATCH/actions.conf
cat > "$actions" <<'ACTIONS'
[Action switch]
Kind=swipe
Fingers=3
Direction=left
Keys=super+Page_Up
ACTIONS
chmod 0644 "$config" "$actions"
"$gesturectl" run --check --actions "$actions" >&2 || exit 1
swipe=$(vm_synth "$desc" "swipe fingers=3 direction=left") || exit 1
chmod 0644 "$swipe"

vm_start_udevd || exit 1
# udevd applies static_node rights once it runs its rules, shortly after it starts
uinput_is_ours() { [ "$(stat -c %G /dev/uinput)" = gestured-uinput ]; }
vm_wait_until 10 "udev to give /dev/uinput to gestured-uinput" uinput_is_ours
echo "uinput mode $(stat -c '%a group %G' /dev/uinput)"

# The daemon as gestured.service runs it (DynamicUser=yes, SupplementaryGroups=input
# gestured-uinput), minus the sandbox.
mkdir -p "$(dirname "$VM_SOCKET")"
chown 993:993 "$(dirname "$VM_SOCKET")"
setpriv --reuid=993 --regid=993 --groups=input,gestured-uinput \
	"$(vm_tool gestured)" --config "$config" --socket "$VM_SOCKET" 2> "$VM_SCRATCH/daemon.log" &
daemon_pid=$!
daemon_answers() { "$gesturectl" --socket "$VM_SOCKET" ping > /dev/null 2>&1; }
vm_wait_until 30 "the daemon to answer" daemon_answers || { cat "$VM_SCRATCH/daemon.log" >&2; exit 1; }
echo "daemon uid $(awk '/^Uid:/ { print $2 }' /proc/$daemon_pid/status) groups $(sed -n 's/^Groups:[[:space:]]*//p' /proc/$daemon_pid/status)"

# libinput as a compositor runs it: every device of seat0, new ones as udev
# announces them.
libinput_out=$VM_SCRATCH/libinput.out
stdbuf -oL libinput debug-events --udev seat0 --show-keycodes > "$libinput_out" 2>&1 &
libinput_pid=$!

vm_create_device "$desc" || exit 1
touch_pid=$VM_DEVICE_PID
echo "touchscreen node $VM_NODE"
vm_wait_until 20 "libinput to add the touchscreen" vm_file_has "$libinput_out" 'DEVICE_ADDED.*ELAN' || status=1
daemon_has_device() { "$gesturectl" --socket "$VM_SOCKET" devices 2>/dev/null | grep -q "^$VM_NODE"; }
vm_wait_until 20 "the daemon to open the touchscreen" daemon_has_device || status=1

# clients_at_least N: whether the daemon counts N clients (the asking one included)
clients_at_least() {
	_n=$("$gesturectl" --socket "$VM_SOCKET" status 2>/dev/null | sed -n 's/^clients: //p')
	[ "${_n:-0}" -ge "$1" ]
}
fewer_clients_than() { ! clients_at_least "$1"; }

# run_actions USER UID OUTPUT: gesturectl run as USER in the background
run_actions() {
	setpriv --reuid="$2" --regid="$2" --init-groups \
		"$gesturectl" --socket "$VM_SOCKET" run --actions "$actions" --verbose --exit-on-shutdown 2> "$3" &
	run_pid=$!
	vm_wait_until 20 "gesturectl run as $1 to connect" clients_at_least 2 || status=1
}

root_err=$VM_SCRATCH/run-root.err
run_actions root 0 "$root_err"
vm_play "$VM_NODE" "$swipe" || status=1
vm_wait_until 30 "the daemon to answer the first key request" vm_file_has "$root_err" 'gestured (sent|refused)' || status=1
vm_wait_until 20 "libinput to see super+Page_Up released" \
	sh -c "[ \$(grep -c 'KEYBOARD_KEY' '$libinput_out') -ge 4 ]" || status=1

keyboard=$(grep -l '^gestured virtual keyboard$' /sys/class/input/event*/device/name 2>/dev/null | head -n 1)
keyboard_node=/dev/input/$(echo "$keyboard" | sed 's|/sys/class/input/\(event[0-9]*\)/.*|\1|')
echo "keyboard node $keyboard_node"
echo "keyboard name $(cat "$keyboard" 2>/dev/null)"

# the second swipe, read from the keyboard's node itself
evdev_out=$VM_SCRATCH/evdev.out
stdbuf -oL evemu-record "$keyboard_node" > "$evdev_out" 2>&1 &
evdev_pid=$!
vm_wait_until 20 "evemu-record to open the keyboard" vm_has_open "$evdev_pid" "$keyboard_node" || status=1
vm_play "$VM_NODE" "$swipe" || status=1
vm_wait_until 20 "evemu-record to read the second combination" \
	sh -c "[ \$(grep -c '^E: .* 0001 ' '$evdev_out') -ge 4 ]" || status=1
vm_wait_until 20 "the daemon to answer the second key request" \
	sh -c "[ \$(grep -cE 'gestured (sent|refused)' '$root_err') -ge 2 ]" || status=1
kill "$run_pid"
wait "$run_pid" 2>/dev/null
vm_wait_until 20 "gesturectl run (root) to disconnect" fewer_clients_than 2 || status=1

# A click by hand, as root: the daemon creates its pointer for it.
"$gesturectl" --socket "$VM_SOCKET" click left > /dev/null 2> "$VM_SCRATCH/click.err"
echo "root click-exit $?"
sed 's/^/root click /' "$VM_SCRATCH/click.err"
vm_wait_until 20 "libinput to see the click released" \
	sh -c "grep -q 'POINTER_BUTTON.*BTN_LEFT.*released' '$libinput_out'" || status=1

# As another user: the same actions, and one request by hand. Both refused.
outsider_err=$VM_SCRATCH/run-outsider.err
run_actions outsider 992 "$outsider_err"
vm_play "$VM_NODE" "$swipe" || status=1
vm_wait_until 30 "the daemon to answer the outsider's key request" vm_file_has "$outsider_err" 'gestured (sent|refused)' || status=1
setpriv --reuid=992 --regid=992 --init-groups \
	"$gesturectl" --socket "$VM_SOCKET" send-keys super+Page_Up > /dev/null 2> "$VM_SCRATCH/send-keys.err"
echo "outsider send-keys-exit $?"
sed 's/^/outsider send-keys /' "$VM_SCRATCH/send-keys.err"

kill -TERM "$daemon_pid"
vm_wait_exit 15 "$daemon_pid"
echo "daemon exit $?"
sed 's/^/gestured: /' "$VM_SCRATCH/daemon.log" >&2
vm_wait_exit 10 "$run_pid" > /dev/null
vm_remove_device "$touch_pid"
kill "$evdev_pid" "$libinput_pid" 2>/dev/null
wait "$evdev_pid" "$libinput_pid" 2>/dev/null

# KEYBOARD_KEY lines of the virtual keyboard: "... KEY_LEFTMETA (125) pressed"
kbd_event=$(basename "$keyboard_node")
grep -E "^[ -]*$kbd_event +KEYBOARD_KEY" "$libinput_out" |
	sed -n 's/.*\(KEY_[A-Z0-9_]*\) ([0-9]*) \(pressed\|released\).*/libinput key \1 \2/p'
# POINTER_BUTTON lines: "... BTN_LEFT (272) pressed, seat count: 1"
grep -E "POINTER_BUTTON" "$libinput_out" |
	sed -n 's/.*\(BTN_[A-Z]*\) ([0-9]*) \(pressed\|released\).*/libinput button \1 \2/p'
# evemu lines: "E: <time> <type> <code> <value>" (hex type and code, decimal value)
awk '$1 == "E:" && $3 == "0001" { print "evdev key " $4 " " $5 }' "$evdev_out"
echo "evdev frames $(awk '$1 == "E:" && $3 == "0000" && $4 == "0000"' "$evdev_out" | wc -l)"
sed 's/^/root run /' "$root_err"
sed 's/^/outsider run /' "$outsider_err"
sed 's/^/libinput: /' "$libinput_out" >&2
exit $status
