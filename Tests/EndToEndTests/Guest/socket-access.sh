#!/bin/sh
# Guest script (scripts/vm/run.sh): who may talk to the daemon. The guest
# gets a "gestured" group and two users, "member" (in it) and "outsider"
# (not), by bind-mounting extended copies of the host's read-only /etc/group
# and /etc/passwd; then the daemon starts with its shipped socket settings
# and each user tries to say hello on the socket.
#
# Output, one fact a line (parsed by SocketAccessTests.swift):
#   socket mode <octal> group <name>
#   <user> connect-exit N           socat's exit status
#   <user> connect-error <reason>   why connect(2) failed, if it did
#   <user> json {...}               what the user received
set -u
. "$GESTURED_REPO/scripts/vm/guest-lib.sh"

for db in group passwd; do
	cp "/etc/$db" "$VM_SCRATCH/$db"
done
echo "gestured:x:990:member" >> "$VM_SCRATCH/group"
echo "member:x:991:991::/nonexistent:/usr/sbin/nologin" >> "$VM_SCRATCH/passwd"
echo "outsider:x:992:992::/nonexistent:/usr/sbin/nologin" >> "$VM_SCRATCH/passwd"
for db in group passwd; do
	mount --bind "$VM_SCRATCH/$db" "/etc/$db" || exit 1
done

vm_daemon_start || exit 1
echo "socket mode $(stat -c %a "$VM_SOCKET") group $(stat -c %G "$VM_SOCKET")"

# as_user NAME UID: says hello on the socket as NAME (its uid, gid = uid,
# and its groups from /etc/group)
as_user() {
	received=$VM_SCRATCH/$1.out
	echo '{"type":"hello","id":1,"protocol_version":1,"client_name":"'"$1"'"}' |
		setpriv --reuid="$2" --regid="$2" --init-groups \
			socat -t 5 - UNIX-CONNECT:"$VM_SOCKET" > "$received" 2> "$received.err"
	echo "$1 connect-exit $?"
	# socat says why it could not connect: "E connect(...): <strerror>"
	sed -n 's/.* E connect(.*): //p' "$received.err" | sed "s/^/$1 connect-error /"
	sed "s/^/$1 json /" "$received"
	sed "s/^/socat ($1): /" "$received.err" >&2
}
as_user member 991
as_user outsider 992

vm_daemon_stop
echo "daemon exit $?"
