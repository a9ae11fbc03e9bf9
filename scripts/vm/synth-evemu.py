#!/usr/bin/python3
"""Writes an evemu recording (E: lines) of scripted touches for a device.

Usage: synth-evemu.py DESC STEP [STEP...] > RECORDING

DESC is an evemu device description; positions are placed in its axis ranges
and the events it emits are the ones it supports (pressure, BTN_TOOL_*).
Each STEP is one of
    tap:FINGERS                 fingers land together and lift after 60 ms
    swipe:FINGERS:DIRECTION     up, down, left or right, 300 ms
    pinch:in|out[:FINGERS]      fingers on a circle that shrinks or grows
    wait:MILLISECONDS           nothing touches the device
Steps follow one another with 300 ms between them. Frames are 10 ms apart,
as on real touchpads, and evemu-play replays them with that timing.

This is the kernel tier's stop-gap generator: the project's Swift
GestureSynthesizer is meant to replace it.
"""

import math
import sys

FRAME_US = 10_000
GAP_US = 300_000

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0x00
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x2F, 0x35, 0x36
ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x39, 0x3A
BTN_TOUCH = 0x14A
# BTN_TOOL_* by finger count, as the kernel's multitouch drivers report it
BTN_TOOLS = {1: 0x145, 2: 0x14D, 3: 0x14E, 4: 0x14F, 5: 0x148}


class Device:
    """The parts of an evemu description the generator needs."""

    def __init__(self, path):
        self.axes = {}  # code -> (min, max, resolution)
        bits = {}  # event type -> bytearray
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                fields = line.split("#", 1)[0].split()
                if not fields:
                    continue
                try:
                    if fields[0] == "A:":
                        code, lo, hi = int(fields[1], 16), int(fields[2]), int(fields[3])
                        res = int(fields[6]) if len(fields) > 6 else 0
                        self.axes[code] = (lo, hi, res)
                    elif fields[0] == "B:":
                        bits.setdefault(int(fields[1], 16), bytearray()).extend(
                            int(b, 16) for b in fields[2:]
                        )
                except (IndexError, ValueError):
                    sys.exit(f"{path}:{number}: malformed line: {line.strip()}")
        keys = bits.get(EV_KEY, bytearray())
        self.keys = {
            code
            for code in range(len(keys) * 8)
            if keys[code // 8] & (1 << (code % 8))
        }
        for code in (ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID):
            if code not in self.axes:
                sys.exit(f"{path}: not a multitouch (protocol B) device: no axis {code:#x}")
        self.slots = self.axes[ABS_MT_SLOT][1] + 1

    def point(self, fx, fy):
        """Device units for a position given as fractions of the surface."""
        (xlo, xhi, _), (ylo, yhi, _) = self.axes[ABS_MT_POSITION_X], self.axes[ABS_MT_POSITION_Y]
        return round(xlo + fx * (xhi - xlo)), round(ylo + fy * (yhi - ylo))

    def mm_to_fraction(self, mm):
        """A length in mm as fractions (x, y) of the surface; 100 mm wide if unknown."""
        fractions = []
        for code in (ABS_MT_POSITION_X, ABS_MT_POSITION_Y):
            lo, hi, res = self.axes[code]
            size_mm = (hi - lo) / res if res > 0 else 100.0
            fractions.append(mm / size_mm)
        return tuple(fractions)


def finger_row(device, count, along_x, spacing_mm=18.0):
    """Offsets (fractions) of `count` fingers in a row across the motion."""
    fx, fy = device.mm_to_fraction(spacing_mm)
    offsets = [(i - (count - 1) / 2) for i in range(count)]
    if along_x:
        return [(0.0, o * fy) for o in offsets]
    return [(o * fx, 0.0) for o in offsets]


def tap(device, fingers):
    row = finger_row(device, fingers, along_x=True)
    frames = [[(0.5 + dx, 0.5 + dy) for dx, dy in row]] * 6
    return frames


def swipe(device, fingers, direction):
    vectors = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
    if direction not in vectors:
        sys.exit(f"swipe direction must be one of {', '.join(vectors)}, got '{direction}'")
    vx, vy = vectors[direction]
    row = finger_row(device, fingers, along_x=vx != 0)
    steps = 30
    frames = []
    for i in range(steps + 1):
        t = i / steps
        # a third of the surface, from one side of the centre to the other
        cx, cy = 0.5 + vx * (t - 0.5) / 3, 0.5 + vy * (t - 0.5) / 3
        frames.append([(cx + dx, cy + dy) for dx, dy in row])
    return frames


def pinch(device, direction, fingers):
    if direction not in ("in", "out"):
        sys.exit(f"pinch wants in or out, got '{direction}'")
    small, large = 10.0, 30.0  # radius, mm
    start, end = (large, small) if direction == "in" else (small, large)
    steps = 30
    frames = []
    for i in range(steps + 1):
        radius = start + (end - start) * i / steps
        rx, ry = device.mm_to_fraction(radius)
        frame = []
        for k in range(fingers):
            angle = 2 * math.pi * k / fingers
            frame.append((0.5 + rx * math.cos(angle), 0.5 + ry * math.sin(angle)))
        frames.append(frame)
    return frames


class Writer:
    """Turns finger positions per frame into protocol-B evemu events."""

    def __init__(self, device):
        self.device = device
        self.time_us = 0
        self.lines = []
        self.next_tracking_id = 1
        self.slot = 0
        self.active = {}  # slot -> (x, y)
        self.tool = None
        self.pressure = ABS_MT_PRESSURE in device.axes

    def emit(self, kind, code, value):
        sec, usec = divmod(self.time_us, 1_000_000)
        self.lines.append(f"E: {sec}.{usec:06d} {kind:04x} {code:04x} {value}")

    def select(self, slot):
        if slot != self.slot:
            self.emit(EV_ABS, ABS_MT_SLOT, slot)
            self.slot = slot

    def frame(self, fingers):
        """One SYN_REPORT frame; fingers[i] stays in slot i while it is down."""
        wanted = {slot: self.device.point(*f) for slot, f in enumerate(fingers)}
        if len(wanted) > self.device.slots:
            sys.exit(f"{len(wanted)} fingers but the device has {self.device.slots} slots")
        for slot in sorted(set(self.active) - set(wanted)):
            self.select(slot)
            self.emit(EV_ABS, ABS_MT_TRACKING_ID, -1)
        for slot, (x, y) in sorted(wanted.items()):
            old = self.active.get(slot)
            if old is None:
                self.select(slot)
                self.emit(EV_ABS, ABS_MT_TRACKING_ID, self.next_tracking_id)
                self.next_tracking_id += 1
                self.emit(EV_ABS, ABS_MT_POSITION_X, x)
                self.emit(EV_ABS, ABS_MT_POSITION_Y, y)
                if self.pressure:
                    self.emit(EV_ABS, ABS_MT_PRESSURE, self.touch_pressure())
            elif old != (x, y):
                self.select(slot)
                if old[0] != x:
                    self.emit(EV_ABS, ABS_MT_POSITION_X, x)
                if old[1] != y:
                    self.emit(EV_ABS, ABS_MT_POSITION_Y, y)
        was_touching = bool(self.active)
        self.active = wanted
        if bool(wanted) != was_touching and BTN_TOUCH in self.device.keys:
            self.emit(EV_KEY, BTN_TOUCH, int(bool(wanted)))
        tool = BTN_TOOLS.get(min(len(wanted), 5)) if wanted else None
        if tool not in self.device.keys:
            tool = None
        if tool != self.tool:
            if self.tool is not None:
                self.emit(EV_KEY, self.tool, 0)
            if tool is not None:
                self.emit(EV_KEY, tool, 1)
            self.tool = tool
        # single-touch emulation: the lowest slot's contact
        if wanted:
            x, y = wanted[min(wanted)]
            if ABS_X in self.device.axes:
                self.emit(EV_ABS, ABS_X, x)
                self.emit(EV_ABS, ABS_Y, y)
        if ABS_PRESSURE in self.device.axes:
            self.emit(EV_ABS, ABS_PRESSURE, self.touch_pressure() if wanted else 0)
        self.emit(EV_SYN, SYN_REPORT, 0)
        self.time_us += FRAME_US

    def touch_pressure(self):
        lo, hi, _ = self.device.axes.get(ABS_MT_PRESSURE, self.device.axes.get(ABS_PRESSURE))
        return lo + (hi - lo) * 6 // 10

    def gesture(self, frames):
        for fingers in frames:
            self.frame(fingers)
        self.frame([])
        self.time_us += GAP_US


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    device = Device(argv[1])
    writer = Writer(device)
    for step in argv[2:]:
        name, *args = step.split(":")
        try:
            if name == "tap" and len(args) == 1:
                writer.gesture(tap(device, int(args[0])))
            elif name == "swipe" and len(args) == 2:
                writer.gesture(swipe(device, int(args[0]), args[1]))
            elif name == "pinch" and len(args) in (1, 2):
                writer.gesture(pinch(device, args[0], int(args[1]) if len(args) == 2 else 2))
            elif name == "wait" and len(args) == 1:
                writer.time_us += int(args[0]) * 1000
            else:
                sys.exit(f"unknown step '{step}' (see synth-evemu.py --help)")
        except ValueError:
            sys.exit(f"step '{step}': expected a whole number")
    print(f"# synth-evemu.py {' '.join(argv[1:])}")
    print("\n".join(writer.lines))


if __name__ == "__main__":
    main(sys.argv)
