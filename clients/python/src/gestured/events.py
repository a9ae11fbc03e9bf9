"""Typed messages of gestured-ipc(7), protocol version 1.

Every message the daemon sends becomes one of these dataclasses; :func:`parse_message`
makes them from a decoded JSON object. Keys this version does not know are ignored and
message types it does not know become :class:`UnknownMessage`, as the protocol's
VERSIONING section asks of clients. Field names are the protocol's keys; units are in the
names (``_mm``, ``_us``, ``_mm_s``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Dict, List, Optional, Type

from .errors import ProtocolError

#: Gesture kinds of the shipped recognizers (custom kinds such as ``tickle`` may also appear).
KINDS = ("tap", "long_press", "pan", "swipe", "pinch", "rotation", "edge_pan")
#: Gesture states; continuous gestures go began, changed..., ended or cancelled; discrete
#: ones (tap, swipe) send one recognized.
STATES = ("began", "changed", "ended", "cancelled", "recognized")


@dataclass(frozen=True)
class Message:
    """Base of every daemon message; ``TYPE`` is its wire ``type``."""

    TYPE: ClassVar[str] = ""


@dataclass(frozen=True)
class Gesture(Message):
    """One action of a configured gesture (``type`` "gesture")."""

    TYPE: ClassVar[str] = "gesture"
    name: str
    kind: str
    state: str
    device: str
    device_name: str
    time_us: int
    gesture_id: str
    fingers: int
    x_mm: float
    y_mm: float
    x_fraction: float
    y_fraction: float
    taps: Optional[int] = None
    direction: Optional[str] = None
    edge: Optional[str] = None
    dx_mm: Optional[float] = None
    dy_mm: Optional[float] = None
    vx_mm_s: Optional[float] = None
    vy_mm_s: Optional[float] = None
    scale: Optional[float] = None
    scale_velocity: Optional[float] = None
    rotation: Optional[float] = None
    rotation_velocity: Optional[float] = None
    approximate_units: bool = False
    values: Dict[str, float] = field(default_factory=dict)
    #: The session on the device's seat was locked (logind's LockedHint) at this event.
    locked: bool = False
    # Following a gesture (gestured-ipc(7)): changes since this gesture's previous event,
    # the translation as a fraction of the surface, and on ``ended`` the fling.
    dx_delta_mm: Optional[float] = None
    dy_delta_mm: Optional[float] = None
    dx_fraction: Optional[float] = None
    dy_fraction: Optional[float] = None
    scale_delta: Optional[float] = None
    rotation_delta: Optional[float] = None
    rest_x_mm: Optional[float] = None
    rest_y_mm: Optional[float] = None
    rest_dx_fraction: Optional[float] = None
    rest_dy_fraction: Optional[float] = None
    fling_s: Optional[float] = None

    @property
    def is_final(self) -> bool:
        """True for the last event of a gesture: recognized, ended or cancelled."""
        return self.state in ("recognized", "ended", "cancelled")


@dataclass(frozen=True)
class Touch(Message):
    """A raw touch (only for subscribers permitted raw touches)."""

    TYPE: ClassVar[str] = "touch"
    device: str
    time_us: int
    touch_id: int
    phase: str
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class Device(Message):
    """A touch device the daemon has open (an element of :class:`Devices`)."""

    TYPE: ClassVar[str] = "device"
    device: str
    name: str
    kind: str
    vendor: int
    product: int
    width_mm: float
    height_mm: float
    slots: int
    approximate_units: bool = False
    gestures: List[str] = field(default_factory=list)
    #: The logind seat ("seat0" unless udev's ID_SEAT says otherwise).
    seat: Optional[str] = None


@dataclass(frozen=True)
class DeviceAdded(Device):
    """A device appeared (hot-plug, resume); carries every key of :class:`Device`."""

    TYPE: ClassVar[str] = "device_added"


@dataclass(frozen=True)
class DeviceRemoved(Message):
    """A device went away; its gestures in progress were sent as cancelled before."""

    TYPE: ClassVar[str] = "device_removed"
    device: str
    name: str


@dataclass(frozen=True)
class Overflow(Message):
    """The client read too slowly; the daemon closes the connection after this."""

    TYPE: ClassVar[str] = "overflow"
    queued: int
    message: str


@dataclass(frozen=True)
class Shutdown(Message):
    """The daemon is stopping (``reason`` "SIGTERM", "SIGINT"); the connection closes."""

    TYPE: ClassVar[str] = "shutdown"
    reason: str


@dataclass(frozen=True)
class Hello(Message):
    """Reply to hello."""

    TYPE: ClassVar[str] = "hello"
    daemon_version: str
    protocol_version: int
    protocol_minor: int = 0
    capabilities: List[str] = field(default_factory=list)
    #: "available", "absent" or "unknown": whether the daemon follows logind.
    logind: Optional[str] = None
    #: Each seat's active session: {"seat", "session", "uid", "user", "locked"}.
    seats: List[Dict[str, Any]] = field(default_factory=list)
    id: Optional[int] = None


@dataclass(frozen=True)
class Ok(Message):
    """Reply to a request that succeeded; ``request`` names it."""

    TYPE: ClassVar[str] = "ok"
    request: str
    id: Optional[int] = None


@dataclass(frozen=True)
class Devices(Message):
    """Reply to list_devices."""

    TYPE: ClassVar[str] = "devices"
    devices: List[Device]
    id: Optional[int] = None


@dataclass(frozen=True)
class Status(Message):
    """Reply to status."""

    TYPE: ClassVar[str] = "status"
    daemon_version: str
    protocol_version: int
    uptime_us: int
    clients: int
    devices: int
    gestures: int
    gestures_emitted: int
    config_path: Optional[str] = None
    #: As in :class:`Hello` (0 from a daemon older than protocol 1.1).
    protocol_minor: int = 0
    #: As in :class:`Hello`.
    logind: Optional[str] = None
    seats: List[Dict[str, Any]] = field(default_factory=list)
    id: Optional[int] = None


@dataclass(frozen=True)
class Error(Message):
    """An error reply; ``code`` is one of the protocol's error codes."""

    TYPE: ClassVar[str] = "error"
    code: str
    message: str
    id: Optional[int] = None


@dataclass(frozen=True)
class UnknownMessage(Message):
    """A message type this client does not know (a newer daemon's); skip it."""

    type: str
    data: Dict[str, Any]


#: Events: what arrives unasked after subscribe.
EVENT_TYPES = (Gesture, Touch, DeviceAdded, DeviceRemoved, Overflow, Shutdown)
_BY_TYPE: Dict[str, Type[Message]] = {
    cls.TYPE: cls for cls in (Gesture, Touch, DeviceAdded, DeviceRemoved, Overflow, Shutdown, Hello, Ok, Devices, Status, Error)
}


def _build(cls: Type[Message], obj: Dict[str, Any]) -> Any:
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in obj:
            kwargs[f.name] = obj[f.name]
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:  # type: ignore[misc]
            raise ProtocolError(f"daemon message '{cls.TYPE}' lacks the key '{f.name}': {obj!r}")
    return cls(**kwargs)


def parse_message(obj: Any) -> Message:
    """Makes the typed message for one decoded JSON object from the daemon."""
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise ProtocolError(f"daemon message is not an object with a 'type': {obj!r}")
    cls = _BY_TYPE.get(obj["type"])
    if cls is None:
        return UnknownMessage(type=obj["type"], data=obj)
    if cls is Devices:
        devices = obj.get("devices")
        if not isinstance(devices, list):
            raise ProtocolError(f"daemon message 'devices' lacks the list 'devices': {obj!r}")
        return Devices(devices=[_build(Device, d) for d in devices], id=obj.get("id"))
    return _build(cls, obj)
