#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup-deps.sh --vm
command -v pkg-config >/dev/null || { echo "gestured: pkg-config is required (apt-get install pkg-config)" >&2; exit 1; }
swift build --build-tests
# The release build catches what only optimised builds reject, and is what scripts/run.sh uses.
swift build -c release --product gestured
swift build -c release --product gesturectl
scripts/lint.sh
# The Python client against the real daemon, and the shell completions in the real shells
# (clients/python/tests, Tests/python; about 10 s).
/usr/bin/python3 -m pytest -q -p no:cacheprovider clients/python/tests Tests/python
swift test --skip-build
# The suite again under AddressSanitizer, then ThreadSanitizer, each in its own build
# directory (docs/hostile-input.md; about 7 minutes each on two cores), on every run so that
# neither rots unnoticed again; GESTURED_SANITIZERS=0 skips them in a local loop.
if [[ "${GESTURED_SANITIZERS:-1}" == 1 ]]; then
    scripts/sanitize.sh address thread
fi
# Hostile input (docs/hostile-input.md): every fuzz target for 10 s (the regression inputs
# first), so a parser or engine crash that came back fails CI; the long runs are by hand.
scripts/fuzz.sh --time 10
