"""Run a real gestured for tests: a private socket, recordings played as devices.

    with ReplayDaemon("swipes.evemu", config="[Gesture swipe]\\nKind=swipe\\n", wait_clients=1) as daemon:
        with gestured.Client(daemon.socket) as client:
            client.subscribe(kinds=["swipe"])
            ...

The daemon is the installed ``gestured`` (or ``$GESTURED_BINARY``, or ``binary=``) started
with ``--no-udev --replay-device FILE``: it opens no real device, plays the recording
through the same decoder and engine as a live one, and serves the socket exactly as in
production. Readiness is the daemon's own ``READY=1`` on a private ``NOTIFY_SOCKET``, so
nothing polls or sleeps.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
from typing import List, Optional, Sequence


class DaemonFailed(RuntimeError):
    """The daemon exited instead of becoming ready; the message carries its standard error."""


class ReplayDaemon:
    def __init__(
        self,
        recording: Optional[str] = None,
        *,
        config: Optional[str] = None,
        config_path: Optional[str] = None,
        binary: Optional[str] = None,
        speed: float = 1.0,
        wait_clients: int = 0,
        exit_after_replay: bool = False,
        extra_args: Sequence[str] = (),
        ready_timeout: float = 60.0,
    ) -> None:
        """``config`` is the configuration's text (written to a temporary file),
        ``config_path`` an existing file; with neither, the daemon's usual files apply.
        ``speed`` paces the replay (the recording's own timestamps times ``1/speed``);
        ``wait_clients`` holds the replay until that many clients have subscribed."""
        self.recording = recording
        self.binary = binary or os.environ.get("GESTURED_BINARY") or shutil.which("gestured")
        if not self.binary:
            raise DaemonFailed("no gestured binary: install gestured, or set GESTURED_BINARY")
        self.directory = tempfile.mkdtemp(prefix="gestured-test-")
        os.chmod(self.directory, 0o755)
        self.socket = os.path.join(self.directory, "gestured.sock")
        self.config_path = config_path
        if config is not None:
            self.config_path = os.path.join(self.directory, "gestured.conf")
            with open(self.config_path, "w") as f:
                f.write(config)
        self.speed = speed
        self.wait_clients = wait_clients
        self.exit_after_replay = exit_after_replay
        self.extra_args = list(extra_args)
        self.ready_timeout = ready_timeout
        self.process: Optional[subprocess.Popen] = None
        self._stderr_path = os.path.join(self.directory, "stderr")

    @property
    def arguments(self) -> List[str]:
        args = [self.binary, "--socket", self.socket, "--no-udev", "--speed", repr(self.speed)]
        if self.config_path:
            args += ["--config", self.config_path]
        if self.recording:
            args += ["--replay-device", self.recording]
        if self.wait_clients:
            args += ["--replay-wait-clients", str(self.wait_clients)]
        if self.exit_after_replay:
            args.append("--exit-after-replay")
        return args + self.extra_args

    def start(self) -> "ReplayDaemon":
        notify_path = os.path.join(self.directory, "notify")
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        notify.bind(notify_path)
        env = dict(os.environ, NOTIFY_SOCKET=notify_path)
        env.pop("LISTEN_FDS", None)
        env.pop("LISTEN_PID", None)
        with open(self._stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(self.arguments, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            notify.settimeout(0.5)
            waited = 0.0
            while True:
                try:
                    data = notify.recv(4096).decode(errors="replace")
                except socket.timeout:
                    # Not a timing assumption: the daemon may take as long as it needs, up
                    # to ready_timeout; this only notices that it died instead.
                    waited += 0.5
                    if self.process.poll() is not None:
                        raise DaemonFailed(f"gestured exited with status {self.process.returncode} before READY=1:\n{self.stderr}")
                    if waited >= self.ready_timeout:
                        self.stop()
                        raise DaemonFailed(f"gestured sent no READY=1 within {self.ready_timeout} s:\n{self.stderr}")
                    continue
                if "READY=1" in data.splitlines():
                    return self
        finally:
            notify.close()

    @property
    def stderr(self) -> str:
        try:
            with open(self._stderr_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stops the daemon (SIGTERM: gestures in flight cancelled, clients sent shutdown)
        and returns its exit status."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(sig)
        status = self.process.wait(timeout=30)
        return status

    def wait(self, timeout: float = 60) -> int:
        """Waits for the daemon to exit by itself (``exit_after_replay``)."""
        assert self.process is not None
        return self.process.wait(timeout=timeout)

    def __enter__(self) -> "ReplayDaemon":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
