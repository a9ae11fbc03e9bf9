"""The project's gestured binary and recordings for the client's tests.

The binary is $GESTURED_BINARY, else the checkout's debug build (scripts/test.sh builds it).
"""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "src"))

#: The project's demo recording (synthesized by the project: tap, double tap, long press,
#: two-finger pan, three-finger swipe left, pinch out and in, rotation, edge swipe).
DEMO = os.path.join(ROOT, "config", "demo", "demo-touchscreen.evemu")
#: The shipped configuration.
SHIPPED_CONFIG = os.path.join(ROOT, "config", "gestured.conf")


def gestured_binary() -> str:
    path = os.environ.get("GESTURED_BINARY") or os.path.join(ROOT, ".build", "debug", "gestured")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no gestured binary at {path}: run 'swift build' first (or set GESTURED_BINARY)")
    return path
