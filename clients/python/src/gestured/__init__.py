"""A client of gestured, the Linux multitouch gesture daemon (gestured-ipc(7)).

Standard library only. :class:`Client` blocks; :class:`AsyncClient` is for asyncio.
Events are typed: :class:`Gesture`, :class:`Touch`, :class:`DeviceAdded`,
:class:`DeviceRemoved`, :class:`Overflow`, :class:`Shutdown` (and :class:`UnknownMessage`
for types a newer daemon may add).
"""

from ._protocol import DEFAULT_SOCKET, PROTOCOL_VERSION
from .aio import AsyncClient
from .client import Client
from .errors import (
    DaemonGone,
    DaemonUnavailable,
    GesturedError,
    PermissionDenied,
    ProtocolError,
    RequestFailed,
    VersionMismatch,
)
from .events import (
    KINDS,
    STATES,
    Device,
    DeviceAdded,
    DeviceRemoved,
    Devices,
    Error,
    Gesture,
    Hello,
    Message,
    Ok,
    Overflow,
    Shutdown,
    Status,
    Touch,
    UnknownMessage,
    parse_message,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncClient", "Client", "DEFAULT_SOCKET", "PROTOCOL_VERSION",
    "DaemonGone", "DaemonUnavailable", "GesturedError", "PermissionDenied", "ProtocolError", "RequestFailed", "VersionMismatch",
    "KINDS", "STATES", "Device", "DeviceAdded", "DeviceRemoved", "Devices", "Error", "Gesture", "Hello", "Message", "Ok",
    "Overflow", "Shutdown", "Status", "Touch", "UnknownMessage", "parse_message",
]
