"""The project's gestured binary and recordings for the client's tests.

The binary is $GESTURED_BINARY, else the checkout's debug build (scripts/test.sh builds it).
"""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "src"))



def _synthesized_demo() -> str:
    """The project's demo recording (tap, double tap, long press, two-finger pan, three-finger
    swipe left, pinch out and in, rotation, edge swipe), written by the built `gesturectl
    synthesize demo` next to the gestured binary's build (it is not committed)."""
    gestured = os.environ.get("GESTURED_BINARY") or os.path.join(ROOT, ".build", "debug", "gestured")
    gesturectl = os.path.join(os.path.dirname(gestured), "gesturectl")
    path = os.path.join(ROOT, ".build", "demo", "demo-touchscreen.evemu")
    if os.access(gesturectl, os.X_OK):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        text = subprocess.run([gesturectl, "synthesize", "demo"], capture_output=True, text=True, check=True).stdout
        with open(path + ".tmp." + str(os.getpid()), "w") as f:
            f.write(text)
        os.replace(path + ".tmp." + str(os.getpid()), path)
    return path


#: The project's demo recording, synthesized.
DEMO = _synthesized_demo()
#: The shipped configuration.
SHIPPED_CONFIG = os.path.join(ROOT, "config", "gestured.conf")


def gestured_binary() -> str:
    path = os.environ.get("GESTURED_BINARY") or os.path.join(ROOT, ".build", "debug", "gestured")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no gestured binary at {path}: run 'swift build' first (or set GESTURED_BINARY)")
    return path
