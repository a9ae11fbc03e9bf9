"""The blocking client: one socket, requests answered in order, events iterated."""

from __future__ import annotations

import os
import socket
import sys
from typing import Any, Iterator, List, Optional, Iterable

from ._protocol import MAX_LINE, PROTOCOL_VERSION, Session, connect_error, socket_path, subscribe_request
from .errors import ProtocolError
from .events import Device, Devices, Hello, Message, Ok, Status


class Client:
    """A connection to gestured (gestured-ipc(7)).

    ``Client()`` connects to ``path`` (default ``$GESTURED_SOCKET`` or
    ``/run/gestured/gestured.sock``) and says hello. Use it as a context manager, ask with
    :meth:`status`, :meth:`devices`, :meth:`reload`, :meth:`ping`, and after
    :meth:`subscribe` iterate it for events::

        with gestured.Client() as client:
            client.subscribe(kinds=["swipe"], states=["recognized"])
            for event in client:
                print(event.name, event.direction)

    Raises :class:`~gestured.DaemonUnavailable` when no daemon answers,
    :class:`~gestured.PermissionDenied` when the socket or the daemon refuses this user,
    :class:`~gestured.VersionMismatch` when the daemon speaks another major version, and
    :class:`~gestured.DaemonGone` when the daemon goes away while the client uses it.

    ``timeout`` (seconds) bounds the wait for a reply; iteration waits for events as long as
    it takes. ``protocol_version`` is the major version announced in hello (the default is
    the one this package implements).
    """

    def __init__(
        self,
        path: Optional[str] = None,
        *,
        client_name: Optional[str] = None,
        timeout: float = 30.0,
        protocol_version: int = PROTOCOL_VERSION,
    ) -> None:
        self.path = socket_path(path)
        self.timeout = timeout
        self._session = Session(self.path, protocol_version)
        self._buffer = b""
        self._eof = False
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        try:
            self._sock.connect(self.path)
        except OSError as error:
            self._sock.close()
            raise connect_error(self.path, error) from None
        try:
            name = client_name or os.path.basename(sys.argv[0] or "python") or "python"
            self._session.check_hello(self.request("hello", **self._session.hello_fields(name)))
        except BaseException:
            self.close()
            raise

    # -- life cycle

    @property
    def hello(self) -> Hello:
        """The daemon's hello reply: its version and this client's capabilities."""
        assert self._session.hello is not None
        return self._session.hello

    def close(self) -> None:
        """Closes the connection (the daemon then forgets the subscription)."""
        self._sock.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def fileno(self) -> int:
        """The socket's descriptor, for selectors; call :meth:`next_event` with timeout 0 when readable."""
        return self._sock.fileno()

    # -- requests

    def request(self, type: str, **fields: Any) -> Message:
        """Sends one request and returns its reply; events read meanwhile are kept for iteration.

        An ``error`` reply raises (see the class documentation)."""
        request_id, line = self._session.encode(type, fields)
        try:
            self._sock.sendall(line)
        except OSError:
            raise self._session.gone(f"sending '{type}'") from None
        while True:
            message = self._read(self.timeout, f"waiting for the reply to '{type}'")
            if message is None:
                raise self._session.gone(f"waiting for the reply to '{type}'")
            if self._session.is_event(message):
                self._session.events.append(message)
                continue
            if getattr(message, "id", None) in (request_id, None):
                return self._session.check_reply(type, message)

    def ping(self) -> None:
        """Checks that the daemon answers."""
        self.request("ping")

    def status(self) -> Status:
        """The daemon's version, uptime, clients, devices and gesture counts."""
        reply = self.request("status")
        assert isinstance(reply, Status)
        return reply

    def devices(self) -> List[Device]:
        """The touch devices the daemon has open, sorted by node."""
        reply = self.request("list_devices")
        assert isinstance(reply, Devices)
        return reply.devices

    def send_keys(self, keys: Iterable[str], device: Optional[str] = None) -> None:
        """Asks the daemon to press a key combination on its virtual keyboard, e.g.
        ``["super", "Page_Up"]``: pressed in order, released in reverse; returns once every
        key is up (gestured-ipc(7) ``send_keys``).

        ``device`` is the node of the gesture that caused it (its seat decides whose session
        may inject). Refused with :class:`~gestured.PermissionDenied` unless the daemon allows
        input (``AllowInputForActiveSession=yes``) and this user is root or the seat's
        active session's user; an unknown key name or a ``rate_limited`` or ``unavailable``
        daemon raises :class:`~gestured.RequestFailed`."""
        fields: dict = {"keys": list(keys)}
        if device is not None:
            fields["device"] = device
        self.request("send_keys", **fields)

    def click(self, button: str = "left", device: Optional[str] = None) -> None:
        """Asks the daemon to click ``button`` (left, right, middle, ...) on its virtual
        pointer; as :meth:`send_keys` otherwise."""
        fields: dict = {"button": button}
        if device is not None:
            fields["device"] = device
        self.request("click", **fields)

    def reload(self) -> None:
        """Asks the daemon to re-read its configuration; returns once it is in effect.

        A configuration with errors raises :class:`~gestured.RequestFailed` whose message
        carries the first diagnostic; the old configuration stays."""
        self.request("reload")

    def subscribe(
        self,
        gestures: Optional[Iterable[str]] = None,
        kinds: Optional[Iterable[str]] = None,
        states: Optional[Iterable[str]] = None,
        devices: Optional[Iterable[str]] = None,
        raw_touches: bool = False,
    ) -> None:
        """Starts (or replaces) the event stream. Each filter is a list (or one string); an
        event is delivered when it passes every filter given. ``raw_touches`` also streams
        :class:`~gestured.Touch` events, when the daemon permits it for this user."""
        self.request("subscribe", **subscribe_request(gestures, kinds, states, devices, raw_touches))

    def unsubscribe(self) -> None:
        """Stops the event stream; the connection stays open."""
        reply = self.request("unsubscribe")
        assert isinstance(reply, Ok)

    # -- events

    def next_event(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next event, waiting at most ``timeout`` seconds (None: as long as it takes);
        None when none came in time. Raises :class:`~gestured.DaemonGone` once the daemon
        has closed the connection (after :class:`~gestured.Shutdown` or
        :class:`~gestured.Overflow` was returned, when it sent one)."""
        while True:
            if self._session.events:
                return self._session.events.popleft()
            message = self._read(timeout, "waiting for events")
            if message is None:
                if self._eof:
                    raise self._session.gone("waiting for events")
                return None
            if self._session.is_event(message):
                return message
            # A reply nobody waits for (cannot happen with this client's requests): skip.

    def events(self) -> Iterator[Message]:
        """Iterates events as they come; see :meth:`next_event` for how it ends."""
        while True:
            event = self.next_event()
            if event is not None:
                yield event

    __iter__ = events

    # -- reading

    def _read(self, timeout: Optional[float], doing: str) -> Optional[Message]:
        """One message; None on timeout or end of file (``_eof`` tells which)."""
        while b"\n" not in self._buffer:
            if self._eof:
                return None
            if len(self._buffer) > MAX_LINE + 2:
                raise ProtocolError(f"daemon sent a line longer than {MAX_LINE} bytes")
            self._sock.settimeout(timeout)
            try:
                chunk = self._sock.recv(65536)
            except socket.timeout:
                return None
            except OSError:
                chunk = b""
            if not chunk:
                self._eof = True
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        line = line.rstrip(b"\r")
        if not line:
            return self._read(timeout, doing)
        return self._session.decode(line)
