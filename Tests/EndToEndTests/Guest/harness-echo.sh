#!/bin/sh
# Guest script (scripts/vm/run.sh) for the harness's own test: prints what
# the host needs to see (its arguments, one a line; the guest kernel; the
# devices uinput needs) and exits with the status given as its first argument.
status=$1
for arg in "$@"; do echo "argument [$arg]"; done
echo "kernel $(uname -r)"
[ -c /dev/uinput ] && echo "uinput /dev/uinput"
echo "module evdev $(grep -c '^evdev ' /proc/modules)"
echo "repository $GESTURED_REPO"
echo "to stderr" >&2
exit "$status"
