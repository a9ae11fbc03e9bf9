#!/usr/bin/python3
"""A private system bus with python-dbusmock's logind template on it, driven line by line.

SessionTests (Swift) run this with /usr/bin/python3 (Debian's python3-dbusmock). It starts a
private dbus-daemon, prints `address ADDRESS`, then reads one command a line on stdin and
answers each with one line, `ok` or `error: WHY`, once the command's D-Bus calls have
returned (so the signals they emit are on the bus):

    start                      run the logind mock (owns org.freedesktop.login1)
    stop                       end the mock process (logind leaves the bus)
    session ID SEAT UID USER   add an active session (the seat's ActiveSession becomes it)
    lock ID / unlock ID        set the session's LockedHint (PropertiesChanged)
    activate SEAT ID           make the session the seat's active one (PropertiesChanged)
    remove ID                  remove the session (SessionRemoved)
    restart-bus                stop the bus daemon (the mock goes with it) and start a new one
                               on the same address
    quit                       stop everything and exit (also on end of input)

The mock emits what logind emits for these: PropertiesChanged through the template's own
methods, and SessionNew/SessionRemoved on the manager here (the template does not).
"""
import os
import signal
import subprocess
import sys
import tempfile

import dbus
from dbusmock import MOCK_IFACE, DBusTestCase

NAME = 'org.freedesktop.login1'
MANAGER_PATH = '/org/freedesktop/login1'
MANAGER = 'org.freedesktop.login1.Manager'


class Bus(DBusTestCase):
    pass


CONFIG = '''<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={path}</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
'''


def start_bus(config):
    """A dbus-daemon in the foreground (so it can be waited for), and its address."""
    daemon = subprocess.Popen(['dbus-daemon', '--nofork', '--print-address=1', '--config-file=' + config],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    # Without the ",guid=…" it prints: a client given the address then accepts the bus that
    # a restart puts on the same path (the guid changes).
    return daemon, daemon.stdout.readline().strip().split(',guid=')[0]


def session_path(sid):
    return dbus.ObjectPath(f'/org/freedesktop/login1/session/{sid}')


def main():
    # A test process may run this with signals blocked (a thread's mask is inherited through
    # posix_spawn); the bus and the mock must be able to take SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    directory = tempfile.mkdtemp(prefix='gestured-logind-mock-')
    config = os.path.join(directory, 'system.conf')
    with open(config, 'w') as f:
        f.write(CONFIG.format(path=os.path.join(directory, 'bus')))
    bus_daemon, address = start_bus(config)
    os.environ['DBUS_SYSTEM_BUS_ADDRESS'] = address
    bus = Bus.get_dbus(system_bus=True)
    print('address ' + address, flush=True)
    process = None
    manager = None
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            try:
                command = words[0]
                if command == 'start':
                    process, manager = Bus.spawn_server_template('logind', {}, stdout=subprocess.DEVNULL)
                elif command == 'stop':
                    process.terminate()
                    process.wait()
                    process = None
                elif command == 'session':
                    sid, seat, uid, user = words[1:5]
                    path = manager.AddSession(sid, seat, dbus.UInt32(int(uid)), user, True, dbus_interface=MOCK_IFACE)
                    manager.EmitSignal(MANAGER, 'SessionNew', 'so', [sid, dbus.ObjectPath(path)], dbus_interface=MOCK_IFACE)
                elif command in ('lock', 'unlock'):
                    session = bus.get_object(NAME, session_path(words[1]))
                    session.SetLockedHint(command == 'lock', dbus_interface='org.freedesktop.login1.Session')
                elif command == 'activate':
                    seat, sid = words[1:3]
                    seat_object = bus.get_object(NAME, f'/org/freedesktop/login1/seat/{seat}')
                    seat_object.Set('org.freedesktop.login1.Seat', 'ActiveSession',
                                    dbus.Struct((sid, session_path(sid)), signature='so'),
                                    dbus_interface=dbus.PROPERTIES_IFACE)
                elif command == 'remove':
                    sid = words[1]
                    manager.RemoveObject(session_path(sid), dbus_interface=MOCK_IFACE)
                    manager.EmitSignal(MANAGER, 'SessionRemoved', 'so', [sid, session_path(sid)], dbus_interface=MOCK_IFACE)
                elif command == 'restart-bus':
                    bus_daemon.terminate()
                    bus_daemon.wait()
                    if process is not None:
                        process.wait()
                        process = None
                    bus_daemon, address = start_bus(config)
                    assert address == os.environ['DBUS_SYSTEM_BUS_ADDRESS'], address
                    bus = Bus.get_dbus(system_bus=True)
                elif command == 'quit':
                    break
                else:
                    raise ValueError(f'unknown command {command!r}')
                print('ok', flush=True)
            except Exception as error:  # every failure is answered, never fatal
                print('error: ' + str(error).replace('\n', ' '), flush=True)
    finally:
        if process is not None:
            process.terminate()
            process.wait()
        bus_daemon.terminate()
        bus_daemon.wait()
        for name in os.listdir(directory):
            os.unlink(os.path.join(directory, name))
        os.rmdir(directory)


if __name__ == '__main__':
    main()
