#!/usr/bin/env bash
# Runs a script inside a QEMU guest with a real Linux input stack (evdev,
# uinput, udev) and returns its output and exit status.
#
# Usage: scripts/vm/run.sh [--timeout SECONDS] [--out DIR] SCRIPT [ARGS...]
#
# The guest is the stock Debian kernel prepared by setup.sh, under QEMU's
# software emulation (TCG). It sees the host's / read-only over 9p, so SCRIPT
# and everything it calls (evemu, libinput, systemd-udevd, Swift builds) are
# the host's own files at the same paths. SCRIPT runs as root in a chroot of
# that tree, with the guest's own /proc, /sys, /dev (devtmpfs) and /run
# (tmpfs); DIR is mounted writable at /run/out. In the guest, GESTURED_REPO is
# this checkout, GESTURED_VM_OUT is /run/out, and every GESTURED_* variable of
# the caller is passed through.
#
# stdout/stderr: SCRIPT's own, copied back once the guest has powered off.
# Exit status: SCRIPT's; 124 when the guest did not finish (timeout, kernel
# panic, QEMU failure), 77 when QEMU is not installed and cannot be.
# DIR keeps stdout, stderr, exit-status and console.log (the serial console:
# kernel messages and the init's progress). Without --out a temporary
# directory is used and removed afterwards, unless the run failed.
#
# Environment: GESTURED_VM_DIR (cache, see setup.sh), GESTURED_VM_ACCEL
# (default tcg; see docs/testing.md for why not kvm), GESTURED_VM_VERBOSE=1
# (kernel messages on the console).
set -euo pipefail

# A caller may hand down blocked signals (Foundation's Process does, from
# the Swift test runner's threads); QEMU would then never see timeout's
# SIGTERM. Start again with none blocked (perl-base is always installed).
if [ "$(awk '/^SigBlk:/ { print $2 }' /proc/$$/status)" != 0000000000000000 ] &&
	[ -z "${GESTURED_VM_SIGNALS_RESET:-}" ]; then
	export GESTURED_VM_SIGNALS_RESET=1
	exec perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!"; exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!"' "$0" "$@"
fi

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() {
	echo "usage: scripts/vm/run.sh [--timeout SECONDS] [--out DIR] SCRIPT [ARGS...]" >&2
	exit 2
}

timeout=120
out=
while [ $# -gt 0 ]; do
	case $1 in
	--timeout)
		[ $# -ge 2 ] || usage
		timeout=$2
		shift 2
		;;
	--out)
		[ $# -ge 2 ] || usage
		out=$2
		shift 2
		;;
	--) shift; break ;;
	-*) echo "scripts/vm/run.sh: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
case $timeout in
'' | *[!0-9]*) echo "scripts/vm/run.sh: --timeout wants whole seconds, got '$timeout'" >&2; exit 2 ;;
esac
script=$(realpath -e "$1" 2>/dev/null) || {
	echo "scripts/vm/run.sh: no such script: $1" >&2
	exit 2
}
shift

if ! "$here/setup.sh"; then
	if ! command -v qemu-system-x86_64 >/dev/null; then
		echo "scripts/vm/run.sh: qemu-system-x86_64 is not installed and setup failed" >&2
		exit 77
	fi
	echo "scripts/vm/run.sh: scripts/vm/setup.sh failed" >&2
	exit 1
fi
command -v qemu-system-x86_64 >/dev/null || {
	echo "scripts/vm/run.sh: qemu-system-x86_64 is not installed" >&2
	exit 77
}
cache=$("$here/setup.sh" --print-dir)

# The initramfs holds only busybox, the init and the modules; it is rebuilt
# when one of them changes and shared by every run otherwise.
busybox=$(command -v busybox)
key=$(cat "$here/init" "$busybox" "$cache/kernel.version" "$cache/modules/order" | sha256sum | cut -c1-16)
initrd=$cache/initramfs-$key.cpio.gz
if [ ! -s "$initrd" ]; then
	staging=$(mktemp -d)
	mkdir -p "$staging"/{bin,dev,proc,sys,run,lib/modules}
	cp "$busybox" "$staging/bin/busybox"
	ln -s busybox "$staging/bin/sh"
	install -m 755 "$here/init" "$staging/init"
	cp "$cache"/modules/*.ko "$cache/modules/order" "$staging/lib/modules/"
	(cd "$staging" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd.tmp.$$"
	mv "$initrd.tmp.$$" "$initrd"
	rm -rf "$staging"
fi

keep_out=1
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/gestured-vm.XXXXXX")
	keep_out=0
fi
mkdir -p "$out"
out=$(realpath "$out")
rm -f "$out"/{stdout,stderr,exit-status,console.log,command}

# The guest command: a script in the output directory, since the kernel
# command line cannot carry arguments with spaces.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
{
	echo "# written by scripts/vm/run.sh"
	echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "export HOME=/run/home GESTURED_REPO=$(quote "$repo") GESTURED_VM_OUT=/run/out"
	echo "mkdir -p /run/home"
	while IFS='=' read -r name _; do
		case $name in
		GESTURED_VM_*) ;;
		GESTURED_*) echo "export $name=$(quote "${!name}")" ;;
		esac
	done < <(env)
	if [ -d "$PWD" ]; then echo "cd $(quote "$PWD")"; fi
	printf 'exec /bin/sh %s' "$(quote "$script")"
	for arg in "$@"; do printf ' %s' "$(quote "$arg")"; done
	echo
} > "$out/command"

# no_timer_check: under software emulation on a loaded host the kernel's check that the
# IO-APIC timer ticks can time out, and it panics ("IO-APIC + timer doesn't work"); the
# check proves nothing about an emulated timer.
append="console=ttyS0 panic=-1 no_timer_check gestured.cmd=/run/out/command"
[ "${GESTURED_VM_VERBOSE:-0}" = 1 ] || append="$append quiet"
status=0
timeout --kill-after=5 "$timeout" qemu-system-x86_64 \
	-accel "${GESTURED_VM_ACCEL:-tcg}" -m 1024 -smp 1 -nographic -no-reboot -net none \
	-kernel "$cache/vmlinux" -initrd "$initrd" -append "$append" \
	-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
	-virtfs local,path="$out",mount_tag=out,security_model=none \
	< /dev/null 2>&1 |
	# the firmware's terminal control sequences and carriage returns
	sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g' -e 's/\r$//' > "$out/console.log" ||
	status=${PIPESTATUS[0]}

[ -f "$out/stdout" ] && cat "$out/stdout"
[ -f "$out/stderr" ] && cat "$out/stderr" >&2
if [ -s "$out/exit-status" ]; then
	rc=$(cat "$out/exit-status")
else
	rc=124
	if [ "$status" = 124 ]; then
		echo "scripts/vm/run.sh: the guest did not finish within $timeout s" >&2
	else
		echo "scripts/vm/run.sh: the guest stopped without an exit status (QEMU status $status)" >&2
	fi
	echo "scripts/vm/run.sh: last console lines ($out/console.log):" >&2
	tail -n 15 "$out/console.log" | sed 's/^/  | /' >&2
fi
if [ "$keep_out" = 0 ]; then
	if [ "$rc" = 0 ]; then
		rm -rf "$out"
	else
		echo "scripts/vm/run.sh: guest output kept in $out" >&2
	fi
fi
exit "$rc"
