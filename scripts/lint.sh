#!/usr/bin/env bash
# Project lints that the compiler cannot do (STYLE.md B3, B14, B15): module import boundaries,
# man pages render with scdoc, systemd units verify, shell scripts parse.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
fail() { echo "lint: $*" >&2; status=1; }

# 1. Import boundaries: each target may import only what the table allows.
declare -A allowed=(
  [GesturedRandom]=""
  [GestureEngine]="GesturedRandom"
  [GesturedProtocol]=""
  [GesturedConfig]="GestureEngine"
  [GesturedLogging]="Synchronization"
  [GesturedCLISupport]=""
  [GesturedSystem]="CLinuxInput Glibc Synchronization GestureEngine GesturedLogging"
  [GesturedClient]="GesturedProtocol GesturedSystem"
  [GesturedDaemon]="GestureEngine GesturedProtocol GesturedConfig GesturedLogging GesturedSystem GesturedClient GesturedCLISupport Dispatch Synchronization"
  [GesturedTestSupport]="Testing GestureEngine GesturedProtocol Foundation"
  [gestured]="GesturedDaemon GesturedCLISupport GesturedLogging GesturedSystem"
  [gesturectl]="GesturedProtocol GesturedSystem GestureEngine GesturedConfig GesturedCLISupport GesturedClient Synchronization"
  [gestured-eval]="GestureEngine GesturedRandom GesturedConfig GesturedDaemon GesturedCLISupport GesturedSystem GesturedProtocol Dispatch Synchronization"
  [gestured-bench]="CBenchSupport Glibc GestureEngine GesturedDaemon GesturedProtocol GesturedSystem GesturedConfig GesturedClient GesturedLogging Dispatch Synchronization"
  [CBenchSupport]=""
)
for dir in Sources/*/; do
  target=$(basename "$dir")
  [ "$target" = CLinuxInput ] && continue
  if [ -z "${allowed[$target]+x}" ]; then fail "target $target has no row in the import table (scripts/lint.sh)"; continue; fi
  while IFS= read -r line; do
    file=${line%%:*}
    module=$(sed -E 's/^[^:]*:[0-9]+:[[:space:]]*(@testable |public |internal |package |@preconcurrency )*import ([A-Za-z_]+).*/\2/' <<<"$line")
    case " ${allowed[$target]} " in *" $module "*) ;; *) fail "$file imports $module, which $target may not import" ;; esac
  done < <(grep -nE '^[[:space:]]*(@testable |public |internal |package |@preconcurrency )*import [A-Za-z_]+' -r "$dir" --include='*.swift' || true)
done
# The daemon links no Foundation library (issue 14: FoundationEssentials alone was about 5 MB
# of its resident memory); checked on whichever builds exist.
for bin in .build/debug/gestured .build/release/gestured; do
  [ -x "$bin" ] || continue
  if ldd "$bin" | grep -q Foundation; then fail "$bin links $(ldd "$bin" | grep -o 'libFoundation[A-Za-z]*' | sort -u | tr '\n' ' ')"; fi
done
# CLinuxInput is imported by exactly one Swift target.
importers=$(grep -rlE 'import CLinuxInput' Sources --include='*.swift' | cut -d/ -f2 | sort -u)
[ "$importers" = GesturedSystem ] || fail "CLinuxInput is imported outside GesturedSystem: $importers"

# 2. Man pages render.
if command -v scdoc >/dev/null; then
  for page in docs/man/*.scd; do scdoc < "$page" > /dev/null || fail "$page does not render with scdoc"; done
else
  fail "scdoc is not installed (apt-get install scdoc)"
fi

# 3. systemd units verify (on copies whose ExecStart points at an existing binary). An unknown
# key only warns with exit 0, so any output at all is a failure.
if command -v systemd-analyze >/dev/null; then
  tmp=$(mktemp -d)
  cp systemd/gestured.service systemd/gestured.socket "$tmp/"
  sed -i "s|^ExecStart=.*|ExecStart=/bin/true|" "$tmp/gestured.service"
  out=$(cd "$tmp" && systemd-analyze verify --man=no ./gestured.socket ./gestured.service 2>&1 || echo "exit status $?")
  [ -z "$out" ] || fail "systemd-analyze verify: $out"
  rm -rf "$tmp"
fi

# 5. Packaging: `make install` into a scratch DESTDIR puts every file where docs/packaging.md
# says, and `make uninstall` takes every one of them away again; the units verify and the
# daemon's sandbox rates "OK" or better (make check-units). Uses the debug build that
# scripts/test.sh made, so no release build is needed here.
if command -v make >/dev/null && [ -x .build/debug/gestured ] && [ -x .build/debug/gesturectl ]; then
  dest=$(mktemp -d)
  if make -s install DESTDIR="$dest" CONFIGURATION=debug >/dev/null; then
    expected="etc/gestured/conf.d/
usr/bin/gesturectl
usr/bin/gestured
usr/lib/systemd/system/gestured.service
usr/lib/systemd/system/gestured.socket
usr/lib/systemd/user/gesturectl-run.service
usr/lib/sysusers.d/gestured.conf
usr/lib/udev/rules.d/70-gestured.rules
usr/share/bash-completion/completions/gestured
usr/share/bash-completion/completions/gesturectl
usr/share/fish/vendor_completions.d/gestured.fish
usr/share/fish/vendor_completions.d/gesturectl.fish
usr/share/gestured/actions.conf
usr/share/gestured/gestured.conf
usr/share/zsh/vendor-completions/_gestured
usr/share/zsh/vendor-completions/_gesturectl"
    for quirks in config/quirks/*.quirks; do
      expected="$expected
usr/share/gestured/quirks/$(basename "$quirks")"
    done
    for actions in config/actions/*.conf; do
      expected="$expected
usr/share/gestured/actions/$(basename "$actions")"
    done
    for page in docs/man/*.scd; do
      name=$(basename "$page" .scd)
      expected="$expected
usr/share/man/man${name##*.}/$name"
    done
    actual=$( (cd "$dest" && find . -type f -printf '%P\n'; find etc -type d -empty -printf '%p/\n') | sort)
    [ "$actual" = "$(sort <<<"$expected")" ] || fail "make install tree differs: $(diff <(sort <<<"$expected") <(echo "$actual") | grep '^[<>]' | tr '\n' ' ')"
    grep -q "^ExecStart=/usr/bin/gestured$" "$dest/usr/lib/systemd/system/gestured.service" || fail "installed gestured.service does not run /usr/bin/gestured"
    make -s uninstall DESTDIR="$dest" CONFIGURATION=debug >/dev/null || fail "make uninstall failed"
    left=$(cd "$dest" && find . -type f -printf '%P ')
    [ -z "$left" ] || fail "make uninstall left files behind: $left"
    [ ! -e "$dest/etc/gestured" ] || fail "make uninstall left the empty /etc/gestured behind"
  else
    fail "make install DESTDIR=$dest failed"
  fi
  rm -rf "$dest"
  if command -v systemd-analyze >/dev/null; then
    out=$(make -s check-units 2>&1) || fail "make check-units: $out"
  fi
fi

# 4. Shell scripts parse, completions included (each in its own shell, when installed).
for script in scripts/*.sh scripts/vm/*.sh scripts/release/*.sh .ci/run completions/bash/*; do
  [ -f "$script" ] && { bash -n "$script" || fail "$script does not parse"; }
done
if command -v zsh >/dev/null; then
  for script in completions/zsh/_*; do zsh -n "$script" || fail "$script does not parse (zsh)"; done
fi
if command -v fish >/dev/null; then
  for script in completions/fish/*.fish; do fish --no-execute "$script" || fail "$script does not parse (fish)"; done
fi

exit $status
