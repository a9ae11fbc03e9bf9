"""Exceptions raised by the client. Every one is a :class:`GesturedError`."""

from __future__ import annotations

from typing import Optional


class GesturedError(Exception):
    """Base class of every error this package raises."""


class DaemonUnavailable(GesturedError):
    """No daemon answers on the socket: it is not running, or the path is wrong.

    ``path`` is the socket tried, ``errno`` the operating system's error number."""

    def __init__(self, path: str, errno: Optional[int], reason: str) -> None:
        self.path = path
        self.errno = errno
        super().__init__(
            f"cannot connect to gestured at {path}: {reason}. "
            "Is gestured running (systemctl status gestured.socket)?"
        )


class PermissionDenied(GesturedError):
    """The daemon, or the socket's permissions, refused this user.

    Raised when the socket cannot be opened (mode 0660, group ``gestured``: add the user to
    that group), and for a request answered with the error code ``not_permitted`` (raw
    touches without ``AllowRawTouchesForGroup=``, a reload by a user other than root)."""

    def __init__(self, message: str, path: Optional[str] = None) -> None:
        self.path = path
        super().__init__(message)


class VersionMismatch(GesturedError):
    """The daemon speaks another major version of the protocol than this client."""

    def __init__(self, client_version: int, daemon_version: Optional[int], message: str) -> None:
        self.client_version = client_version
        self.daemon_version = daemon_version
        super().__init__(message)


class DaemonGone(GesturedError):
    """The daemon closed the connection: it stopped, restarted, or cut off a slow reader.

    ``reason`` is the ``shutdown`` reason ("SIGTERM") or ``overflow`` when the daemon sent
    one before closing, else None (the connection just ended)."""

    def __init__(self, message: str, reason: Optional[str] = None) -> None:
        self.reason = reason
        super().__init__(message)


class RequestFailed(GesturedError):
    """The daemon answered a request with an ``error`` whose code is none of the above.

    ``code`` is the protocol's error code (``bad_request``, ``unknown_request``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(f"{message} [{code}]")


class ProtocolError(GesturedError):
    """The daemon sent something this client cannot read (not JSON, not an object)."""
