"""The asyncio client: the same protocol as :class:`gestured.Client`, awaited."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, AsyncIterator, Dict, Iterable, List, Optional

from ._protocol import MAX_LINE, PROTOCOL_VERSION, Session, connect_error, socket_path, subscribe_request
from .errors import ProtocolError
from .events import Device, Devices, Hello, Message, Status


class AsyncClient:
    """A connection to gestured for asyncio programs. Make one with :meth:`connect`::

        async with await gestured.AsyncClient.connect() as client:
            await client.subscribe(kinds=["pinch"])
            async for event in client:
                ...

    Requests and iteration may be used from several tasks: reads are serialized, events
    read while a task waits for its reply are kept for the iterating task. Errors are those
    of :class:`gestured.Client`.
    """

    def __init__(self, path: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, session: Session, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._reader = reader
        self._writer = writer
        self._session = session
        self._lock = asyncio.Lock()
        self._eof = False
        self._replies: Dict[int, Message] = {}

    @classmethod
    async def connect(
        cls,
        path: Optional[str] = None,
        *,
        client_name: Optional[str] = None,
        timeout: float = 30.0,
        protocol_version: int = PROTOCOL_VERSION,
    ) -> "AsyncClient":
        """Connects and says hello."""
        path = socket_path(path)
        try:
            reader, writer = await asyncio.open_unix_connection(path, limit=MAX_LINE + 2)
        except OSError as error:
            raise connect_error(path, error) from None
        client = cls(path, reader, writer, Session(path, protocol_version), timeout)
        try:
            name = client_name or os.path.basename(sys.argv[0] or "python") or "python"
            client._session.check_hello(await client.request("hello", **client._session.hello_fields(name)))
        except BaseException:
            await client.close()
            raise
        return client

    @property
    def hello(self) -> Hello:
        assert self._session.hello is not None
        return self._session.hello

    async def close(self) -> None:
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except OSError:
            pass

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def request(self, type: str, **fields: Any) -> Message:
        """Sends one request and returns its reply (see :meth:`gestured.Client.request`)."""
        request_id, line = self._session.encode(type, fields)
        try:
            self._writer.write(line)
            await self._writer.drain()
        except OSError:
            raise self._session.gone(f"sending '{type}'") from None
        async with self._lock:
            while True:
                # Another task may have read this reply while waiting for its own.
                if request_id in self._replies:
                    return self._session.check_reply(type, self._replies.pop(request_id))
                try:
                    message = await asyncio.wait_for(self._read(), self.timeout)
                except asyncio.TimeoutError:
                    raise ProtocolError(f"no reply to '{type}' within {self.timeout} s") from None
                if message is None:
                    raise self._session.gone(f"waiting for the reply to '{type}'")
                if self._session.is_event(message):
                    self._session.events.append(message)
                    continue
                reply_id = getattr(message, "id", None)
                if reply_id in (request_id, None):
                    return self._session.check_reply(type, message)
                self._replies[reply_id] = message

    async def ping(self) -> None:
        await self.request("ping")

    async def status(self) -> Status:
        reply = await self.request("status")
        assert isinstance(reply, Status)
        return reply

    async def devices(self) -> List[Device]:
        reply = await self.request("list_devices")
        assert isinstance(reply, Devices)
        return reply.devices

    async def send_keys(self, keys: Iterable[str], device: Optional[str] = None) -> None:
        """See :meth:`gestured.Client.send_keys`."""
        fields: dict = {"keys": list(keys)}
        if device is not None:
            fields["device"] = device
        await self.request("send_keys", **fields)

    async def click(self, button: str = "left", device: Optional[str] = None) -> None:
        """See :meth:`gestured.Client.click`."""
        fields: dict = {"button": button}
        if device is not None:
            fields["device"] = device
        await self.request("click", **fields)

    async def reload(self) -> None:
        await self.request("reload")

    async def subscribe(
        self,
        gestures: Optional[Iterable[str]] = None,
        kinds: Optional[Iterable[str]] = None,
        states: Optional[Iterable[str]] = None,
        devices: Optional[Iterable[str]] = None,
        raw_touches: bool = False,
    ) -> None:
        await self.request("subscribe", **subscribe_request(gestures, kinds, states, devices, raw_touches))

    async def unsubscribe(self) -> None:
        await self.request("unsubscribe")

    async def next_event(self) -> Message:
        """The next event; raises :class:`gestured.DaemonGone` once the connection has ended."""
        while True:
            if self._session.events:
                return self._session.events.popleft()
            async with self._lock:
                if self._session.events:
                    continue
                message = await self._read()
            if message is None:
                raise self._session.gone("waiting for events")
            if self._session.is_event(message):
                return message

    def __aiter__(self) -> AsyncIterator[Message]:
        return self._events()

    async def _events(self) -> AsyncIterator[Message]:
        while True:
            yield await self.next_event()

    async def _read(self) -> Optional[Message]:
        while True:
            if self._eof:
                return None
            try:
                line = await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError:
                self._eof = True
                return None
            except asyncio.LimitOverrunError:
                raise ProtocolError(f"daemon sent a line longer than {MAX_LINE} bytes") from None
            except OSError:
                self._eof = True
                return None
            line = line.rstrip(b"\r\n")
            if line:
                return self._session.decode(line)
