#!/usr/bin/env python3
"""Print every three-finger swipe: its direction, distance and speed.

    python3 three_finger_swipes.py            # the system daemon's socket
    GESTURED_SOCKET=/tmp/s.sock python3 three_finger_swipes.py
"""

import math
import sys

import gestured


def main() -> int:
    try:
        with gestured.Client(client_name="three-finger-swipes") as client:
            client.subscribe(kinds=["swipe"], states=["recognized"])
            for event in client:
                if isinstance(event, gestured.Gesture) and event.fingers == 3:
                    distance = math.hypot(event.dx_mm or 0, event.dy_mm or 0)
                    speed = math.hypot(event.vx_mm_s or 0, event.vy_mm_s or 0)
                    print(f"{event.direction} swipe, {distance:.0f} mm at {speed:.0f} mm/s on {event.device_name}", flush=True)
    except gestured.DaemonGone as gone:
        print(f"gestured went away: {gone}", file=sys.stderr)
    except gestured.GesturedError as error:
        print(f"three_finger_swipes: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
