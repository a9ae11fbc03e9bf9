"""Paths shared by the project's Python-driven tests (completions, trace): the built binaries, and
the Python client's test daemon (clients/python/src/gestured/testing.py)."""

import os
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "clients", "python", "src"))

BUILD = os.environ.get("GESTURED_BUILD_DIR") or os.path.join(ROOT, ".build", "debug")
DEMO = os.path.join(ROOT, "config", "demo", "demo-touchscreen.evemu")


def built(name: str) -> str:
    path = os.path.join(BUILD, name)
    if not os.access(path, os.X_OK):
        pytest.fail(f"no {name} at {path}: run 'swift build' first (or set GESTURED_BUILD_DIR)")
    return path
