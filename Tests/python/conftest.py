"""Fixtures of the project's Python-driven tests (project_support.py has the paths)."""

import pytest

from project_support import BUILD, built


@pytest.fixture(scope="session")
def bin_dir() -> str:
    built("gestured")
    built("gesturectl")
    return BUILD
