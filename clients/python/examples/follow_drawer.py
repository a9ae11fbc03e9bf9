#!/usr/bin/env python3
"""A shell's side of an edge swipe: a drawer that follows the finger 1:1, then opens or
snaps back (gestured-ipc(7), "Following a gesture").

    python3 follow_drawer.py [--gesture edge-left] [--open-at 0.25]

While the finger moves, the drawer's offset is the translation as a fraction of the surface
(``dx_fraction``), moved by ``dx_delta_mm`` each event. When the finger lifts, the drawer
opens if the fling would carry it past ``--open-at`` of the surface (``rest_dx_fraction``),
animating for ``fling_s``; otherwise, and on ``cancelled``, it snaps back.
"""

import argparse
import sys

import gestured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gesture", default="edge-left", help="configured edge_pan or pan name")
    parser.add_argument("--open-at", type=float, default=0.25, help="surface fraction that opens the drawer")
    parser.add_argument("--socket", default=None)
    args = parser.parse_args()
    try:
        with gestured.Client(args.socket, client_name="follow-drawer") as client:
            client.subscribe(gestures=[args.gesture])
            moved_mm = 0.0
            for event in client:
                if not isinstance(event, gestured.Gesture):
                    continue
                if event.state == "began":
                    moved_mm = 0.0
                moved_mm += event.dx_delta_mm or 0.0
                if event.state in ("began", "changed"):
                    print(f"follow {event.dx_fraction:+.3f} ({moved_mm:+.1f} mm)", flush=True)
                elif event.state == "ended":
                    rest = event.rest_dx_fraction if event.rest_dx_fraction is not None else event.dx_fraction
                    if abs(rest) >= args.open_at:
                        print(f"open: rest at {rest:+.3f} of the surface, animate {event.fling_s:.2f} s", flush=True)
                    else:
                        print(f"snap back: rest at {rest:+.3f} of the surface", flush=True)
                elif event.state == "cancelled":
                    print("snap back: cancelled", flush=True)
    except gestured.DaemonGone:
        pass
    except gestured.GesturedError as error:
        print(f"follow_drawer: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
