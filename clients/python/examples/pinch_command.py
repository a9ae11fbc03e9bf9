#!/usr/bin/env python3
"""Run a desktop command when a pinch ends: one for pinching out, one for pinching in.

    python3 pinch_command.py --out 'xdotool key ctrl+plus' --in 'xdotool key ctrl+minus'

The pinch's final scale decides: above 1 + THRESHOLD the fingers spread (out), below
1 - THRESHOLD they closed (in). Commands run with /bin/sh, detached, with the scale in
$GESTURED_SCALE.
"""

import argparse
import os
import subprocess
import sys

import gestured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", dest="spread", help="command for pinching out (fingers apart)")
    parser.add_argument("--in", dest="close", help="command for pinching in (fingers together)")
    parser.add_argument("--threshold", type=float, default=0.15, help="how far the scale must change (default 0.15)")
    parser.add_argument("--socket", help="the daemon's socket (default $GESTURED_SOCKET or the system one)")
    args = parser.parse_args()
    started = []
    try:
        with gestured.Client(args.socket, client_name="pinch-command") as client:
            client.subscribe(kinds=["pinch"], states=["ended"])
            for event in client:
                if not isinstance(event, gestured.Gesture) or event.scale is None:
                    continue
                command = None
                if event.scale >= 1 + args.threshold:
                    command = args.spread
                elif event.scale <= 1 - args.threshold:
                    command = args.close
                if command:
                    env = dict(os.environ, GESTURED_SCALE=f"{event.scale:.3f}")
                    started.append(subprocess.Popen(["/bin/sh", "-c", command], env=env, start_new_session=True))
                started = [p for p in started if p.poll() is None]
    except gestured.DaemonGone as gone:
        print(f"gestured went away: {gone}", file=sys.stderr)
    except gestured.GesturedError as error:
        print(f"pinch_command: {error}", file=sys.stderr)
        return 1
    finally:
        for process in started:  # reap what is still running before exiting
            process.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
