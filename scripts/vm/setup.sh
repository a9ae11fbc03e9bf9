#!/usr/bin/env bash
# Prepares the kernel tier's guest: a stock Debian kernel and the few modules
# the guest loads (evdev, uinput, and virtio + 9p to mount the host's files).
# Idempotent: everything is cached in $GESTURED_VM_DIR (default
# /var/cache/gestured-vm), and a second run only checks that it is there.
#
# Usage: scripts/vm/setup.sh [--print-dir]
#
# Result in the cache directory:
#   vmlinux          uncompressed kernel ELF, booted by QEMU through PVH
#   modules/*.ko     the modules, load order in modules/order
#   kernel.version   the kernel release, e.g. 6.1.0-57-amd64
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${GESTURED_VM_DIR:-/var/cache/gestured-vm}

# The modules the guest needs, by name; their dependencies are resolved with
# modprobe against the unpacked kernel so the load order is the kernel's own.
#   virtio_pci, 9pnet_virtio, 9p: the host's / and the output directory
#   evdev: /dev/input/eventN nodes (a module in Debian's kernel)
#   uinput: /dev/uinput, for evemu-device
wanted_modules=(virtio_pci 9pnet_virtio 9p evdev uinput)

log() { echo "gestured-vm: $*" >&2; }
fail() { echo "gestured-vm: error: $*" >&2; exit 1; }

ready() {
	[ -s "$cache/vmlinux" ] && [ -s "$cache/modules/order" ] && [ -s "$cache/kernel.version" ]
}

if [ "${1:-}" = --print-dir ]; then echo "$cache"; exit 0; fi

# The host tools: qemu, busybox-static, cpio, kmod, evemu-tools, libinput,
# udev (see scripts/setup-deps.sh --vm).
"$repo/scripts/setup-deps.sh" --vm

mkdir -p "$cache"
# Several test processes may start at once; one of them prepares the cache.
exec 9>"$cache/.setup.lock"
flock 9
if ready; then
	exit 0
fi

work=$(mktemp -d "$cache/.setup.XXXXXX")
trap 'rm -rf "$work"' EXIT

# linux-image-amd64 is the metapackage; its dependency names the image of the
# current ABI (linux-image-6.1.0-57-amd64). The -cloud-amd64 flavour cannot
# be used: it has neither uinput nor 9p.
resolve_image() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1
}
image=$(resolve_image)
if [ -z "$image" ]; then
	log "apt does not know linux-image-amd64 yet, running apt-get update"
	apt-get update -qq
	image=$(resolve_image)
fi
[ -n "$image" ] || fail "cannot resolve the kernel package through linux-image-amd64"

log "fetching $image"
# (as root, apt would try to drop to its _apt user, who cannot write here)
(cd "$work" && apt-get download -q -o APT::Sandbox::User=root "$image" >/dev/null) ||
	fail "apt-get download $image failed"
deb=$(ls "$work"/*.deb)
dpkg -x "$deb" "$work/root"
kver=$(ls "$work/root/lib/modules")
[ -n "$kver" ] && [ -f "$work/root/boot/vmlinuz-$kver" ] ||
	fail "$deb has no /boot/vmlinuz-* and /lib/modules/<version>"

# vmlinuz is a bzImage whose payload is XZ-compressed. QEMU can boot the plain
# ELF through PVH, which skips real mode and the in-guest decompressor; under
# software emulation that saves about 2.5 s per boot. The payload starts at
# the XZ magic; --single-stream stops at its end and ignores the trailer.
vmlinuz=$work/root/boot/vmlinuz-$kver
offset=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$vmlinuz" | head -n 1 | cut -d: -f1 || true)
[ -n "$offset" ] || fail "$vmlinuz: no XZ stream found (not an XZ bzImage?)"
# (through a file: xz stops reading early, which would kill a pipe's writer)
tail -c +"$((offset + 1))" "$vmlinuz" > "$work/payload.xz"
xz -dc --single-stream "$work/payload.xz" > "$work/vmlinux"
head -c 4 "$work/vmlinux" | grep -q 'ELF' || fail "$vmlinuz: the XZ payload is not an ELF image"

# modules.dep is not shipped in the .deb; depmod builds it so that modprobe
# can list each wanted module's dependencies in load order.
depmod -b "$work/root" "$kver"
mkdir -p "$work/modules"
: > "$work/modules/order"
for m in "${wanted_modules[@]}"; do
	modprobe -d "$work/root" -S "$kver" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }' |
		while read -r path; do
			name=$(basename "$path" .ko)
			grep -qx "$name" "$work/modules/order" && continue
			case $path in
			*.ko) ;;
			*) fail "$path: compressed module; expected plain .ko files" ;;
			esac
			cp "$path" "$work/modules/$name.ko"
			echo "$name" >> "$work/modules/order"
		done
done
for m in "${wanted_modules[@]}"; do
	grep -qx "$m" "$work/modules/order" || fail "module $m not found in $image"
done

rm -rf "$cache/modules" "$cache/vmlinux"
mv "$work/modules" "$cache/modules"
mv "$work/vmlinux" "$cache/vmlinux"
echo "$kver" > "$cache/kernel.version"
log "kernel $kver ready in $cache ($(wc -l < "$cache/modules/order") modules)"
