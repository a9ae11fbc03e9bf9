#!/usr/bin/env bash
# Installs the Debian packages gestured needs to build and test. Idempotent.
# Usage: scripts/setup-deps.sh [--vm]   (--vm adds what the QEMU kernel tier needs)
set -euo pipefail
# python3-pytest runs the Python client's, the completions' and the trace's tests; zsh and
# fish run the completions for real (bash is always there); chromium renders the trace SVG;
# valgrind counts the daemon path's instructions per frame (docs/benchmarks.md).
# libsystemd-dev is sd-bus (the daemon follows logind on the system bus); dbus-daemon and
# python3-dbusmock give the session tests a real bus with logind's mock on it (SessionTests).
pkgs=(libevdev-dev libudev-dev libmtdev-dev libsystemd-dev pkg-config scdoc systemd udev python3-pytest zsh fish chromium
  dbus-daemon python3-dbusmock valgrind)
if [ "${1:-}" = "--vm" ]; then
  pkgs+=(qemu-system-x86 busybox-static cpio kmod libinput-tools udev evemu-tools socat libinput-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "gestured: missing Debian packages: ${missing[*]}" >&2
  echo "gestured: run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "gestured: installing ${missing[*]}" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
