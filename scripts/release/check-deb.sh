#!/usr/bin/env bash
# Release check for the Debian package (docs/packaging.md, "The Debian package"): builds
# gestured_*.deb with dpkg-buildpackage from a copy of this checkout, runs lintian, checks the
# binaries need no Swift library, then installs the package in a fresh Debian 12 chroot
# (debootstrap --variant=minbase, so the package's Depends must bring everything it needs)
# and checks there: the gestured group exists, `gestured --check-config` passes, the installed
# units pass `systemd-analyze verify`, the socket is enabled and nothing else, and
# `apt-get purge` leaves the file system as it was before the install.
#
# Too slow for CI (a static release build and a debootstrap: ~10 min on two cores); run it
# before a release, as root, with the Swift toolchain on PATH (or in /opt/swift):
#   scripts/release/check-deb.sh 2>&1 | tee docs/release-checks/debian-package.txt
# GESTURED_DEB_WORK=DIR keeps the build and the chroot in DIR (default: a temporary one; the
# chroot is made anew on every run);
# GESTURED_DEB_MIRROR picks the Debian mirror (default http://deb.debian.org/debian).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"
say() { printf '\n== %s\n' "$*"; }
fail() { echo "check-deb: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap and chroot need it)"
for tool in dpkg-buildpackage dh lintian debootstrap swift; do
  command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install devscripts debhelper lintian debootstrap; Swift on PATH)"
done
work=${GESTURED_DEB_WORK:-$(mktemp -d /var/tmp/gestured-deb.XXXXXX)}
mirror=${GESTURED_DEB_MIRROR:-http://deb.debian.org/debian}
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
echo "check-deb: gestured $version, work directory $work, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"

say "1. dpkg-buildpackage -us -uc -b"
src="$work/gestured-$version"
rm -rf "$src" && mkdir -p "$src"
git ls-files -co --exclude-standard -z | tar --null -T - -c | tar -x -C "$src"
start=$(date +%s)
(cd "$src" && dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "dpkg-buildpackage"; }
echo "built in $(( $(date +%s) - start )) s:"
deb=$(ls "$work"/gestured_"$version"_*.deb)
ls -l "$work"/*.deb | sed "s|$work/||"
dpkg-deb -f "$deb" Package Version Architecture Depends Installed-Size
echo "contents:"
dpkg-deb -c "$deb" | awk '{print $1, $6}' | sed 's|\./|/|'

say "2. lintian"
lintian --info --display-info --fail-on error "$deb" | tee "$work/lintian.txt" || fail "lintian reports errors"
grep -q '^E:' "$work/lintian.txt" && fail "lintian reports errors"
echo "lintian: no errors ($(grep -c '^W:' "$work/lintian.txt" || true) warnings, $(grep -c '^I:' "$work/lintian.txt" || true) infos)"

say "3. the binaries need no Swift library"
x=$(mktemp -d); dpkg-deb -x "$deb" "$x"
for b in gestured gesturectl; do
  needed=$(readelf -d "$x/usr/bin/$b" | awk '/NEEDED/ {gsub(/[\[\]]/, "", $5); print $5}' | tr '\n' ' ')
  echo "$b NEEDED: $needed"
  case "$needed" in *swift*|*Foundation*|*dispatch*|*BlocksRuntime*) fail "$b links a Swift library dynamically: $needed" ;; esac
done
rm -rf "$x"

say "4. a fresh Debian 12 chroot (debootstrap --variant=minbase bookworm)"
root="$work/chroot"
umount "$root/dev/pts" "$root/proc" 2>/dev/null || true
rm -rf "$root"
start=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; fail "debootstrap"; }
echo "debootstrap: $(( $(date +%s) - start )) s"
mount -t proc proc "$root/proc"
mount -t devpts devpts "$root/dev/pts"
trap 'umount "$root/dev/pts" "$root/proc" 2>/dev/null || true' EXIT
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
cp "$deb" "$root/tmp/gestured.deb"
in_root apt-get update -qq
# The package's dependencies first (from Debian, as apt would), so that the snapshot before
# the package's own install holds them and the purge can be compared with it.
deps=$(dpkg-deb -f "$deb" Depends | sed -E 's/\([^)]*\)//g; s/\|[^,]*//g; s/,/ /g')
echo "dependencies from Debian: $deps"
in_root apt-get install -y -qq --no-install-recommends $deps > "$work/deps.log" 2>&1 || { tail -20 "$work/deps.log"; fail "installing the dependencies"; }
in_root test ! -e /opt/swift || fail "the chroot has a Swift toolchain"
# /run is a tmpfs on a real system (systemd-analyze writes there); apt's and dpkg's own
# records and caches change with any install.
snapshot() { (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./run -o -path ./tmp -o -path ./var/cache -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log \) -prune -o -printf '%p %m %u %g\n' | sort; cat etc/group etc/gshadow 2>/dev/null); }
snapshot > "$work/before.txt"

say "5. apt-get install ./gestured.deb"
in_root apt-get install -y --no-install-recommends /tmp/gestured.deb 2>&1 | grep -vE '^(Reading|Building|Selecting|\(Reading)' | tail -20
in_root dpkg -s gestured | grep -E '^(Status|Version):'
echo "group: $(in_root getent group gestured)" ; in_root getent group gestured >/dev/null || fail "no gestured group"
echo "\$ gestured --version"; in_root gestured --version
echo "\$ gestured --check-config"; in_root gestured --check-config || fail "gestured --check-config"
echo "\$ gesturectl check-config"; in_root gesturectl check-config || fail "gesturectl check-config"
echo "\$ gesturectl gestures | head -3"; in_root gesturectl gestures | head -3
echo "\$ gestured --replay (the demo, made in the chroot by gesturectl synthesize demo)"
in_root sh -c 'gesturectl synthesize demo > /tmp/demo.evemu && gestured --replay /tmp/demo.evemu | head -4'
echo "\$ systemd-analyze verify gestured.socket gestured.service"
out=$(in_root systemd-analyze verify --man=no /usr/lib/systemd/system/gestured.socket /usr/lib/systemd/system/gestured.service 2>&1) || fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify: $out"
echo "(no output: clean)"
echo "\$ systemd-analyze --user verify gesturectl-run.service"
out=$(in_root sh -c 'mkdir -p /tmp/rt && chmod 700 /tmp/rt && XDG_RUNTIME_DIR=/tmp/rt systemd-analyze --user verify --man=no /usr/lib/systemd/user/gesturectl-run.service' 2>&1) || fail "systemd-analyze --user verify: $out"
[ -z "$out" ] || fail "systemd-analyze --user verify: $out"
echo "(no output: clean)"
echo "enabled: socket $(in_root systemctl is-enabled gestured.socket || true), service $(in_root systemctl is-enabled gestured.service || true), user runner $(in_root systemctl --global is-enabled gesturectl-run.service || true)"
[ "$(in_root systemctl is-enabled gestured.socket || true)" = enabled ] || fail "gestured.socket is not enabled"
[ "$(in_root systemctl is-enabled gestured.service || true)" != enabled ] || fail "gestured.service is enabled by itself"
[ "$(in_root systemctl --global is-enabled gesturectl-run.service || true)" != enabled ] || fail "the user runner is enabled for everyone"
for f in /usr/share/bash-completion/completions/gesturectl /usr/share/zsh/vendor-completions/_gesturectl /usr/share/fish/vendor_completions.d/gesturectl.fish \
  /usr/share/man/man8/gestured.8.gz /usr/share/man/man7/gestured-ipc.7.gz /lib/udev/rules.d/70-gestured.rules /usr/share/gestured/gestured.conf /usr/lib/sysusers.d/gestured.conf $(ls config/quirks/*.quirks | sed 's|^config/|/usr/share/gestured/|'); do
  in_root test -f "$f" || fail "$f is not installed"
done
echo "installed: completions, man pages, udev rule, vendor configuration and quirks, sysusers entry"

say "6. apt-get purge gestured"
in_root apt-get purge -y gestured 2>&1 | grep -vE '^(Reading|Building|\(Reading)' | tail -5
snapshot > "$work/after.txt"
if ! diff -u "$work/before.txt" "$work/after.txt"; then fail "the purge left the file system different from before the install (diff above)"; fi
echo "purge: the file system (and /etc/group) is as it was before the install"
in_root getent group gestured >/dev/null && fail "the gestured group is still there"

say "check-deb: PASSED"
