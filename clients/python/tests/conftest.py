"""Fixtures: a daemon replaying the demo, or idle (client_support.py has the paths)."""

import pytest

from client_support import DEMO, SHIPPED_CONFIG, gestured_binary
from gestured.testing import ReplayDaemon


@pytest.fixture
def binary() -> str:
    return gestured_binary()


@pytest.fixture
def demo_daemon(binary):
    """A daemon with the shipped configuration that plays the demo once one client has
    subscribed, then stops by itself (clients get shutdown, then end of file)."""
    with ReplayDaemon(DEMO, config_path=SHIPPED_CONFIG, binary=binary, speed=20, wait_clients=1, exit_after_replay=True) as daemon:
        yield daemon


@pytest.fixture
def idle_daemon(binary):
    """A daemon with the shipped configuration and no device: for requests."""
    with ReplayDaemon(None, config_path=SHIPPED_CONFIG, binary=binary) as daemon:
        yield daemon
