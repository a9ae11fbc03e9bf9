"""What the sync and async clients share: framing, request ids, and errors (gestured-ipc(7))."""

from __future__ import annotations

import errno as errno_codes
import json
import os
from collections import deque
from typing import Any, Deque, Dict, Iterable, Optional

from .errors import DaemonGone, DaemonUnavailable, PermissionDenied, ProtocolError, RequestFailed, VersionMismatch
from .events import EVENT_TYPES, Error, Hello, Message, Overflow, Shutdown, UnknownMessage, parse_message

#: The protocol major version this client speaks.
PROTOCOL_VERSION = 1
#: The daemon's socket unless configured otherwise (``SocketPath=``).
DEFAULT_SOCKET = "/run/gestured/gestured.sock"
#: The longest line the protocol allows, terminator excluded.
MAX_LINE = 65536


def socket_path(path: Optional[str]) -> str:
    """The path given, else ``$GESTURED_SOCKET``, else the default socket."""
    return path or os.environ.get("GESTURED_SOCKET") or DEFAULT_SOCKET


def connect_error(path: str, error: OSError) -> Exception:
    """The exception for a failed connect: permission or unavailable."""
    if error.errno in (errno_codes.EACCES, errno_codes.EPERM):
        return PermissionDenied(
            f"permission denied opening {path}: add this user to the socket's group "
            "('gestured' by default: usermod -aG gestured USER, then log in again)",
            path=path,
        )
    return DaemonUnavailable(path, error.errno, error.strerror or str(error))


def subscribe_request(
    gestures: Optional[Iterable[str]],
    kinds: Optional[Iterable[str]],
    states: Optional[Iterable[str]],
    devices: Optional[Iterable[str]],
    raw_touches: bool,
) -> Dict[str, Any]:
    """The subscribe request's keys; absent filters are left out (they do not filter)."""
    request: Dict[str, Any] = {}
    for key, value in (("gestures", gestures), ("kinds", kinds), ("states", states), ("devices", devices)):
        if value is not None:
            if isinstance(value, str):
                value = [value]
            request[key] = list(value)
    if raw_touches:
        request["raw_touches"] = True
    return request


class Session:
    """Request ids, the events read while waiting for a reply, and how the session ended."""

    def __init__(self, path: str, protocol_version: int) -> None:
        self.path = path
        self.protocol_version = protocol_version
        self.next_id = 1
        self.events: Deque[Message] = deque()
        #: Set once the daemon said it stops (shutdown) or cut us off (overflow).
        self.end_reason: Optional[str] = None
        self.hello: Optional[Hello] = None

    def encode(self, type_: str, fields: Dict[str, Any]) -> "tuple[int, bytes]":
        request_id = self.next_id
        self.next_id += 1
        body = {"type": type_, "id": request_id, **fields}
        return request_id, (json.dumps(body, separators=(",", ":")) + "\n").encode()

    def hello_fields(self, client_name: str) -> Dict[str, Any]:
        return {"protocol_version": self.protocol_version, "client_name": client_name}

    def decode(self, line: bytes) -> Message:
        try:
            obj = json.loads(line)
        except (ValueError, UnicodeDecodeError) as error:
            raise ProtocolError(f"daemon sent a line that is not JSON ({error}): {line[:200]!r}") from None
        message = parse_message(obj)
        if isinstance(message, Shutdown):
            self.end_reason = message.reason
        elif isinstance(message, Overflow):
            self.end_reason = "overflow"
        return message

    @staticmethod
    def is_event(message: Message) -> bool:
        return isinstance(message, EVENT_TYPES) or isinstance(message, UnknownMessage)

    def gone(self, while_doing: str) -> DaemonGone:
        if self.end_reason == "overflow":
            return DaemonGone(f"the daemon cut this client off for reading too slowly ({while_doing})", "overflow")
        if self.end_reason:
            return DaemonGone(f"the daemon shut down ({self.end_reason}) ({while_doing})", self.end_reason)
        return DaemonGone(f"the daemon closed the connection on {self.path} ({while_doing})")

    def check_reply(self, request_type: str, reply: Message) -> Message:
        """Returns a successful reply; raises the matching exception for an error."""
        if isinstance(reply, Error):
            if reply.code == "version_mismatch":
                return self._raise_version(reply.message)
            if reply.code == "not_permitted":
                raise PermissionDenied(f"{request_type}: {reply.message}", path=self.path)
            raise RequestFailed(reply.code, f"{request_type}: {reply.message}")
        return reply

    def check_hello(self, reply: Message) -> Hello:
        reply = self.check_reply("hello", reply)
        if not isinstance(reply, Hello):
            raise ProtocolError(f"expected a hello reply, got '{type(reply).__name__}'")
        if reply.protocol_version != self.protocol_version:
            raise VersionMismatch(
                self.protocol_version,
                reply.protocol_version,
                f"the daemon speaks protocol {reply.protocol_version}.{reply.protocol_minor}, this client {self.protocol_version}",
            )
        self.hello = reply
        return reply

    def _raise_version(self, message: str) -> Message:
        raise VersionMismatch(self.protocol_version, None, f"the daemon refused protocol {self.protocol_version}: {message}")
