"""The Python client against the real daemon replaying the project's demo recording."""

import asyncio
import os
import re
import signal
import subprocess
import sys

import pytest

import gestured
from gestured.testing import ReplayDaemon

from client_support import DEMO, SHIPPED_CONFIG, HERE

EXAMPLES = os.path.join(HERE, "..", "examples")
SRC = os.path.join(HERE, "..", "src")


def collect(client):
    """Every event until the daemon goes away, and how it went."""
    events = []
    with pytest.raises(gestured.DaemonGone) as gone:
        for event in client:
            events.append(event)
    return events, gone.value


def test_hello_status_and_ping(idle_daemon):
    with gestured.Client(idle_daemon.socket, client_name="pytest") as client:
        assert client.hello.protocol_version == gestured.PROTOCOL_VERSION
        assert "gestures" in client.hello.capabilities
        status = client.status()
        assert isinstance(status, gestured.Status)
        assert status.config_path == SHIPPED_CONFIG
        assert status.gestures == 20  # the [Gesture ...] sections of config/gestured.conf
        assert status.clients == 1
        assert status.devices == 0
        # A replay-only daemon stays off the machine's system bus: no seat is locked.
        assert status.logind == "absent"
        assert status.seats == [{"seat": "seat0", "locked": False}]
        assert client.hello.seats == status.seats
        client.ping()
        assert client.devices() == []


def test_subscribe_with_filters_gets_only_matching_typed_events(demo_daemon):
    with gestured.Client(demo_daemon.socket) as client:
        client.subscribe(kinds=["swipe"], states=["recognized"])
        events, gone = collect(client)
    gestures = [e for e in events if isinstance(e, gestured.Gesture)]
    assert [(g.name, g.direction, g.fingers) for g in gestures] == [
        ("two-finger-swipe", "down", 2),
        ("three-finger-swipe", "left", 3),
    ]
    swipe = gestures[1]
    assert swipe.kind == "swipe" and swipe.state == "recognized" and swipe.is_final
    assert swipe.dx_mm < -5 and abs(swipe.dy_mm) < abs(swipe.dx_mm)
    assert 0 <= swipe.x_fraction <= 1 and 0 <= swipe.y_fraction <= 1
    assert swipe.device_name == "gestured demo touchscreen" and ":" in swipe.gesture_id
    # Hot-plug events pass the kinds filter (it filters gestures); the device came and went.
    assert isinstance(events[0], gestured.DeviceAdded) and events[0].width_mm > 0
    assert events[0].seat == "seat0"
    # No logind for a replay-only daemon: every event says the seat was not locked.
    assert all(g.locked is False for g in gestures)
    assert any(isinstance(e, gestured.DeviceRemoved) for e in events)
    assert isinstance(events[-1], gestured.Shutdown)
    assert gone.reason == events[-1].reason == "replay finished"


def test_gesture_name_filter_and_continuous_phases(demo_daemon):
    with gestured.Client(demo_daemon.socket) as client:
        client.subscribe(gestures=["pinch"])
        events, _ = collect(client)
    pinches = [e for e in events if isinstance(e, gestured.Gesture)]
    assert {p.name for p in pinches} == {"pinch"}
    states = [p.state for p in pinches]
    # Two pinches (out, then in): each began, changed..., ended, with one gesture id.
    assert states.count("began") == 2 and states.count("ended") == 2 and "changed" in states
    first_id = pinches[0].gesture_id
    first = [p for p in pinches if p.gesture_id == first_id]
    assert first[0].state == "began" and first[-1].state == "ended"
    ends = [p.scale for p in pinches if p.state == "ended"]
    assert ends[0] > 1.3 and ends[1] < 0.8


def test_device_filter_that_matches_nothing_delivers_no_gesture(demo_daemon):
    with gestured.Client(demo_daemon.socket) as client:
        client.subscribe(devices=["/dev/input/event999"])
        events, _ = collect(client)
    assert [e for e in events if isinstance(e, gestured.Gesture)] == []
    assert isinstance(events[-1], gestured.Shutdown)


def test_devices_while_the_replay_plays(binary):
    with ReplayDaemon(DEMO, config_path=SHIPPED_CONFIG, binary=binary, speed=0.05, wait_clients=1) as daemon:
        with gestured.Client(daemon.socket) as client:
            client.subscribe(kinds=["tap"])
            added = client.next_event(timeout=30)
            assert isinstance(added, gestured.DeviceAdded)
            devices = client.devices()
    assert len(devices) == 1
    device = devices[0]
    assert isinstance(device, gestured.Device)
    assert (device.device, device.name, device.kind) == (added.device, added.name, "touchscreen")
    assert "three-finger-swipe" in device.gestures and device.slots >= 5


def test_async_iteration_sees_what_sync_iteration_sees(binary):
    def run_sync():
        with ReplayDaemon(DEMO, config_path=SHIPPED_CONFIG, binary=binary, speed=20, wait_clients=1, exit_after_replay=True) as d:
            with gestured.Client(d.socket) as client:
                client.subscribe(states=["recognized", "began", "ended"])
                return [(e.name, e.state) for e in collect(client)[0] if isinstance(e, gestured.Gesture)]

    async def run_async(socket_path):
        client = await gestured.AsyncClient.connect(socket_path)
        async with client:
            assert client.hello.protocol_version == 1
            status = await client.status()
            assert status.gestures == 20
            await client.subscribe(states=["recognized", "began", "ended"])
            seen = []
            with pytest.raises(gestured.DaemonGone):
                async for event in client:
                    if isinstance(event, gestured.Gesture):
                        seen.append((event.name, event.state))
            return seen

    expected = run_sync()
    with ReplayDaemon(DEMO, config_path=SHIPPED_CONFIG, binary=binary, speed=20, wait_clients=1, exit_after_replay=True) as d:
        seen = asyncio.run(run_async(d.socket))
    assert seen == expected
    assert ("three-finger-swipe", "recognized") in seen and ("tap", "recognized") in seen


def test_async_requests_from_several_tasks_get_their_own_replies(idle_daemon):
    async def run():
        client = await gestured.AsyncClient.connect(idle_daemon.socket)
        async with client:
            results = await asyncio.gather(*(client.status() for _ in range(5)), client.devices(), client.ping())
        return results

    results = asyncio.run(run())
    assert all(isinstance(r, gestured.Status) and r.gestures == 20 for r in results[:5])
    assert results[5] == [] and results[6] is None


def test_version_mismatch_is_its_own_exception(idle_daemon):
    with pytest.raises(gestured.VersionMismatch) as raised:
        gestured.Client(idle_daemon.socket, protocol_version=2)
    assert raised.value.client_version == 2
    assert "protocol" in str(raised.value)

    async def connect():
        await gestured.AsyncClient.connect(idle_daemon.socket, protocol_version=99)

    with pytest.raises(gestured.VersionMismatch):
        asyncio.run(connect())


def test_no_daemon_is_unavailable(tmp_path):
    path = str(tmp_path / "nothing.sock")
    with pytest.raises(gestured.DaemonUnavailable) as raised:
        gestured.Client(path)
    assert raised.value.path == path and path in str(raised.value)


def run_as_other_user(code, socket_path):
    """Runs Python `code` as nobody when we are root (root passes every permission check),
    else as ourselves; returns its output. The package is copied where nobody can read it
    (the checkout may be in root's home)."""
    import shutil
    import tempfile

    copy = tempfile.mkdtemp(prefix="gestured-client-")
    os.chmod(copy, 0o755)
    shutil.copytree(os.path.join(SRC, "gestured"), os.path.join(copy, "gestured"), ignore=shutil.ignore_patterns("__pycache__"))
    for directory, _, files in os.walk(copy):
        os.chmod(directory, 0o755)
        for name in files:
            os.chmod(os.path.join(directory, name), 0o644)
    env = dict(os.environ, PYTHONPATH=copy, SOCK=socket_path, PYTHONDONTWRITEBYTECODE="1")
    preexec = None
    if os.geteuid() == 0:
        def preexec():
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
    try:
        result = subprocess.run([sys.executable, "-c", code], env=env, preexec_fn=preexec, cwd="/", capture_output=True, text=True, timeout=60)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_socket_permission_is_permission_denied(binary):
    with ReplayDaemon(None, config="[Daemon]\nSocketMode=0600\n\n[Gesture tap]\nKind=tap\n", binary=binary) as daemon:
        if os.geteuid() != 0:
            os.chmod(daemon.socket, 0)
        out = run_as_other_user(
            "import os, gestured\n"
            "try:\n    gestured.Client(os.environ['SOCK'])\n"
            "except gestured.PermissionDenied as e:\n    print('denied', e.path == os.environ['SOCK'], 'gestured' in str(e))\n",
            daemon.socket,
        )
    assert out.strip() == "denied True True"


def test_raw_touches_refused_without_the_group_and_typed_when_allowed(binary):
    config = "[Daemon]\nSocketMode=0666\n\n[Gesture tap]\nKind=tap\n"
    with ReplayDaemon(None, config=config, binary=binary) as daemon:
        out = run_as_other_user(
            "import os, gestured\n"
            "c = gestured.Client(os.environ['SOCK'])\n"
            "print('raw_touches' in c.hello.capabilities)\n"
            "try:\n    c.subscribe(raw_touches=True)\n"
            "except gestured.PermissionDenied as e:\n    print('denied', 'AllowRawTouchesForGroup' in str(e))\n",
            daemon.socket,
        )
    assert out.split("\n")[:2] == ["False", "denied True"]
    if os.geteuid() != 0:
        pytest.skip("raw touches as root: not root")
    with ReplayDaemon(DEMO, config_path=SHIPPED_CONFIG, binary=binary, speed=20, wait_clients=1, exit_after_replay=True) as daemon:
        with gestured.Client(daemon.socket) as client:
            client.subscribe(kinds=["tap"], raw_touches=True)
            events, _ = collect(client)
    touches = [e for e in events if isinstance(e, gestured.Touch)]
    phases = {t.phase for t in touches}
    assert phases >= {"began", "moved"} and phases & {"ended", "cancelled"}
    assert all(isinstance(t.touch_id, int) and t.x_mm >= 0 for t in touches)


def test_send_keys_and_click_refusals_are_typed_and_name_the_reason(binary):
    # The option off (the shipped default): refused for everyone, root too.
    with ReplayDaemon(None, config_path=SHIPPED_CONFIG, binary=binary) as daemon:
        with gestured.Client(daemon.socket) as client:
            assert "input" not in client.hello.capabilities
            with pytest.raises(gestured.PermissionDenied) as refused:
                client.send_keys(["super", "Page_Up"])
            assert "AllowInputForActiveSession=no" in str(refused.value)
            with pytest.raises(gestured.PermissionDenied):
                client.click("left")
            with pytest.raises(gestured.RequestFailed) as typo:
                client.send_keys(["super", "Page_Upp"])
            assert typo.value.code == "bad_request" and "did you mean 'KEY_PAGEUP'" in str(typo.value)
    # On, another user: without logind (no active session known) only root may.
    config = "[Daemon]\nSocketMode=0666\nAllowInputForActiveSession=yes\n\n[Gesture tap]\nKind=tap\n"
    with ReplayDaemon(None, config=config, binary=binary) as daemon:
        out = run_as_other_user(
            "import os, gestured\n"
            "c = gestured.Client(os.environ['SOCK'])\n"
            "try:\n    c.send_keys(['ctrl', 'c'])\n"
            "except gestured.PermissionDenied as e:\n    print('denied', 'only root may send input' in str(e))\n",
            daemon.socket,
        )
    if os.geteuid() == 0:
        assert out.strip() == "denied True"


def test_daemon_stopping_mid_stream_raises_daemon_gone(binary):
    with ReplayDaemon(DEMO, config_path=SHIPPED_CONFIG, binary=binary, speed=0.05, wait_clients=1) as daemon:
        with gestured.Client(daemon.socket) as client:
            client.subscribe()
            assert isinstance(client.next_event(timeout=30), gestured.DeviceAdded)
            # Keep reading while the daemon stops: it gives clients a bounded time to read
            # what it queued (gestured(8), SIGTERM), as a real client would.
            daemon.process.send_signal(signal.SIGTERM)
            events, gone = collect(client)
            assert daemon.stop() == 0
            assert isinstance(events[-1], gestured.Shutdown) and gone.reason == "SIGTERM"
            with pytest.raises(gestured.DaemonGone):
                client.status()
    # Killed outright: no shutdown message, the connection just ends.
    with ReplayDaemon(None, config_path=SHIPPED_CONFIG, binary=binary) as daemon:
        with gestured.Client(daemon.socket) as client:
            daemon.stop(signal.SIGKILL)
            with pytest.raises(gestured.DaemonGone) as raised:
                client.next_event()
            assert raised.value.reason is None


def test_reload_applies_and_a_broken_configuration_is_request_failed(binary):
    with ReplayDaemon(None, config="[Gesture tap]\nKind=tap\n", binary=binary) as daemon:
        with gestured.Client(daemon.socket) as client:
            assert client.status().gestures == 1
            with open(daemon.config_path, "a") as f:
                f.write("[Gesture pinch]\nKind=pinch\n")
            client.reload()
            assert client.status().gestures == 2
            with open(daemon.config_path, "a") as f:
                f.write("[Gesture broken]\nKind=teleport\n")
            with pytest.raises(gestured.RequestFailed) as raised:
                client.reload()
            assert raised.value.code == "bad_request"
            assert "gestured.conf:6:6" in str(raised.value) and "teleport" in str(raised.value)
            assert client.status().gestures == 2


def test_unknown_message_types_and_keys_are_tolerated():
    message = gestured.parse_message({"type": "frobnicated", "x": 1})
    assert isinstance(message, gestured.UnknownMessage) and message.type == "frobnicated"
    shutdown = gestured.parse_message({"type": "shutdown", "reason": "SIGINT", "future_key": [1]})
    assert shutdown == gestured.Shutdown(reason="SIGINT")
    with pytest.raises(gestured.ProtocolError) as raised:
        gestured.parse_message({"type": "touch", "device": "d"})
    assert "time_us" in str(raised.value)


def test_example_prints_three_finger_swipes(demo_daemon):
    result = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "three_finger_swipes.py")],
        env=dict(os.environ, PYTHONPATH=os.path.abspath(SRC), GESTURED_SOCKET=demo_daemon.socket),
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("left swipe, ") and "demo touchscreen" in lines[0], lines
    # The swipe's velocity when it was recognized is on the wire (vx_mm_s, vy_mm_s): a real speed.
    match = re.search(r"(\d+) mm at (\d+) mm/s", lines[0])
    assert match and int(match.group(1)) > 0 and int(match.group(2)) >= 50, lines


def test_example_runs_a_command_for_each_pinch(demo_daemon, tmp_path):
    log = tmp_path / "pinches"
    result = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "pinch_command.py"), "--socket", demo_daemon.socket,
         "--out", f'echo "out $GESTURED_SCALE" >> {log}', "--in", f'echo "in $GESTURED_SCALE" >> {log}'],
        env=dict(os.environ, PYTHONPATH=os.path.abspath(SRC)),
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = log.read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["out", "in"]
    assert float(lines[0].split()[1]) > 1.15 and float(lines[1].split()[1]) < 0.85


def test_continuous_gestures_carry_deltas_that_add_up(demo_daemon):
    with gestured.Client(demo_daemon.socket) as client:
        client.subscribe(gestures=["pinch"])
        events, _ = collect(client)
    pinches = [e for e in events if isinstance(e, gestured.Gesture)]
    assert pinches
    by_attempt = {}
    for p in pinches:
        by_attempt.setdefault(p.gesture_id, []).append(p)
    for attempt in by_attempt.values():
        assert attempt[0].state == "began"
        # scale_delta is the change since the previous event (from 1 at began).
        total = 1.0
        for p in attempt:
            assert p.scale_delta is not None
            total += p.scale_delta
            assert abs(total - p.scale) < 1e-9
        # A pinch has no translation, so no translation keys and no fling.
        assert all(p.dx_delta_mm is None and p.dx_fraction is None and p.fling_s is None for p in attempt)


def test_the_fling_keys_parse_from_an_ended_pan():
    line = {
        "type": "gesture", "name": "pan3", "kind": "pan", "state": "ended", "device": "/dev/input/event5",
        "device_name": "pad", "time_us": 5, "gesture_id": "event5:3", "fingers": 3, "x_mm": 60, "y_mm": 20,
        "x_fraction": 0.6, "y_fraction": 0.33, "dx_mm": 30, "dy_mm": 0, "vx_mm_s": 200, "vy_mm_s": 0,
        "dx_delta_mm": 0.5, "dy_delta_mm": 0, "dx_fraction": 0.3, "dy_fraction": 0,
        "rest_x_mm": 188.35, "rest_y_mm": 20, "rest_dx_fraction": 1.5835, "rest_dy_fraction": 0, "fling_s": 1.283,
    }
    pan = gestured.parse_message(line)
    assert isinstance(pan, gestured.Gesture) and pan.is_final
    assert (pan.dx_delta_mm, pan.dx_fraction) == (0.5, 0.3)
    assert (pan.rest_x_mm, pan.rest_y_mm, pan.rest_dx_fraction, pan.fling_s) == (188.35, 20, 1.5835, 1.283)
    # The documented formula: v·|v| / (2a) farther, a = 1000 pt/s² = 155.83 mm/s².
    a = 1000 * 25.4 / 163
    assert abs(pan.rest_x_mm - (pan.x_mm + 200 * 200 / (2 * a))) < 0.01
    assert abs(pan.fling_s - 200 / a) < 0.001


def test_example_drawer_follows_the_edge_swipe_and_opens(demo_daemon):
    result = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "follow_drawer.py"), "--socket", demo_daemon.socket],
        env=dict(os.environ, PYTHONPATH=os.path.abspath(SRC)),
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    follows = [line for line in lines if line.startswith("follow ")]
    # The demo swipes 40 mm in from the left edge of a 256 mm screen in 0.25 s.
    assert len(follows) > 5, lines
    offsets = [float(line.split()[1]) for line in follows]
    assert offsets == sorted(offsets) and 0 < offsets[-1] < 0.2
    # The summed deltas are the translation the fractions came from.
    assert abs(float(follows[-1].split("(")[1].split()[0]) - offsets[-1] * 256) < 0.5
    # 160 mm/s slides on about 82 mm: past a quarter of the screen, so the drawer opens.
    assert lines[-1].startswith("open: rest at +0.4") or lines[-1].startswith("open: rest at +0.3"), lines
