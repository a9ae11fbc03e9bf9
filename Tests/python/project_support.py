"""Paths shared by the project's Python-driven tests (completions, trace): the built binaries, and
the Python client's test daemon (clients/python/src/gestured/testing.py)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "clients", "python", "src"))

BUILD = os.environ.get("GESTURED_BUILD_DIR") or os.path.join(ROOT, ".build", "debug")



def _synthesized_demo() -> str:
    """The demo recording, written by the built `gesturectl synthesize demo` (it is not
    committed: GestureSynthesizer makes it, as `gestured --demo` does at run time)."""
    path = os.path.join(ROOT, ".build", "demo", "demo-touchscreen.evemu")
    gesturectl = os.path.join(BUILD, "gesturectl")
    if os.access(gesturectl, os.X_OK):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        text = subprocess.run([gesturectl, "synthesize", "demo"], capture_output=True, text=True, check=True).stdout
        tmp = f"{path}.tmp.{os.getpid()}"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    return path


DEMO = _synthesized_demo()


def built(name: str) -> str:
    path = os.path.join(BUILD, name)
    if not os.access(path, os.X_OK):
        pytest.fail(f"no {name} at {path}: run 'swift build' first (or set GESTURED_BUILD_DIR)")
    return path
