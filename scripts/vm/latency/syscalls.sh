#!/usr/bin/env bash
# What one frame costs the daemon in system calls and thread wake-ups on the
# real device path, in the kernel tier's guest: a benchmark, it prints
# figures (per frame played) and asserts nothing. syscalls-guest.sh says how.
#
# Usage: scripts/vm/latency/syscalls.sh   (GESTURED_BIN names the build to
# measure, as for run.sh; default .build/debug)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
"$repo/scripts/vm/setup.sh"
bin=$("$repo/scripts/vm/setup.sh" --print-dir)/latency
mkdir -p "$bin"
cc -O2 -Wall -Wextra -o "$bin/latency-client" "$here/client.c"
"$repo/scripts/vm/run.sh" --timeout 300 "$here/syscalls-guest.sh" "$bin"
