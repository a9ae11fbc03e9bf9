#!/bin/sh
# Guest script (scripts/vm/run.sh) for the harness's own test: never ends (it
# reads a FIFO nobody writes), so the host's timeout has to stop the guest.
echo "waiting forever"
mkfifo /run/never
read -r _ < /run/never
