"""Makes evemu recordings on the project's synthesized demo clickpad (100 × 65 mm, 40
units/mm, pressure 0…255) from contact paths, for the trace tests: palms, edge rests and taps
that the touch filter must judge."""

import os

from project_support import ROOT

CLICKPAD = os.path.join(ROOT, "Tests", "GestureEngineTests", "Fixtures", "gestured-demo-clickpad", "three-finger-swipe-left.evemu")
UNITS_PER_MM = 40
TOOLS = {1: 0x145, 2: 0x14D, 3: 0x14E, 4: 0x14F}  # BTN_TOOL_FINGER, DOUBLETAP, TRIPLETAP, QUADTAP


def description():
    with open(CLICKPAD) as f:
        return "".join(line for line in f if line[:2] in ("N:", "I:", "P:", "B:", "A:") or line.startswith("# EVEMU"))


def recording(contacts, frame_interval=0.01):
    """contacts: (slot, start_s, end_s, path(t) -> (x_mm, y_mm), pressure). One frame every
    frame_interval while anything is down; a frame at each landing and lift."""
    times = set()
    for _, start, end, _, _ in contacts:
        t = start
        while t < end:
            times.add(round(t, 6))
            t += frame_interval
        times.add(round(end, 6))
    lines = [description()]
    down = {}
    tracking = 0
    held = 0
    for t in sorted(times):
        events = []
        for index, (slot, start, end, path, pressure) in enumerate(contacts):
            if t >= end and index in down:
                events += [(3, 0x2F, slot), (3, 0x39, -1)]
                del down[index]
        for index, (slot, start, end, path, pressure) in enumerate(contacts):
            if start <= t < end:
                x, y = path(t - start)
                events.append((3, 0x2F, slot))
                if index not in down:
                    tracking += 1
                    down[index] = tracking
                    events.append((3, 0x39, tracking))
                events += [(3, 0x35, round(x * UNITS_PER_MM)), (3, 0x36, round(y * UNITS_PER_MM)), (3, 0x3A, pressure)]
        count = len(down)
        if count != held:
            if held:
                events.append((1, TOOLS[min(held, 4)], 0))
            if count:
                events.append((1, TOOLS[min(count, 4)], 1))
            if (held == 0) != (count == 0):
                events.append((1, 0x14A, 1 if count else 0))
            held = count
        events.append((0, 0, 0))
        for kind, code, value in events:
            lines.append(f"E: {t:.6f} {kind:04x} {code:04x} {value}\n")
    return "".join(lines)


def still(x, y):
    return lambda t: (x, y)


def line(x0, y0, x1, y1, duration):
    return lambda t: (x0 + (x1 - x0) * min(t / duration, 1), y0 + (y1 - y0) * min(t / duration, 1))
