#!/usr/bin/env bash
# Project lints that the compiler cannot do (STYLE.md B3, B14, B15): module import boundaries,
# man pages render with scdoc, systemd units verify, shell scripts parse.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
fail() { echo "lint: $*" >&2; status=1; }

# 1. Import boundaries: each target may import only what the table allows.
declare -A allowed=(
  [GestureEngine]=""
  [GesturedProtocol]="FoundationEssentials"
  [GesturedConfig]="GestureEngine"
  [GesturedLogging]="Synchronization"
  [GesturedCLISupport]=""
  [GesturedSystem]="CLinuxInput Glibc Dispatch Synchronization GestureEngine GesturedLogging"
  [GesturedClient]="GesturedProtocol GesturedSystem"
  [GesturedDaemon]="GestureEngine GesturedProtocol GesturedConfig GesturedLogging GesturedSystem GesturedClient GesturedCLISupport Dispatch Synchronization"
  [GesturedTestSupport]="Testing GestureEngine GesturedProtocol Foundation"
  [gestured]="GesturedDaemon GesturedCLISupport GesturedLogging GesturedSystem"
  [gesturectl]="GesturedProtocol GesturedSystem GestureEngine GesturedConfig GesturedCLISupport GesturedClient Synchronization"
  [gestured-eval]="GestureEngine GesturedConfig GesturedDaemon GesturedCLISupport GesturedSystem GesturedProtocol Dispatch Synchronization"
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

# 4. Shell scripts parse.
for script in scripts/*.sh scripts/vm/*.sh .ci/run; do
  [ -f "$script" ] && { bash -n "$script" || fail "$script does not parse"; }
done

exit $status
