"""`gestured --replay FILE --svg OUT`: the picture of what happened, tested as people use it.

The SVG must parse as XML; headless Chromium (Debian's chromium) must render it to a PNG
whose pixels show each touch's path where the touch was and nothing where none was; a golden
outline of the project's demo recording's SVG (elements, ids, classes, words — no
coordinates) catches changes of structure (GESTURED_RECORD_GOLDENS=1 rewrites it); and a
touchpad recording made here checks the filter's decisions are drawn."""

import math
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from png_reader import read_png
from project_support import DEMO, ROOT, built
from touchpad_recording import line, recording, still

SVG = "{http://www.w3.org/2000/svg}"
SHIPPED = os.path.join(ROOT, "config", "gestured.conf")
GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "demo-touchscreen.trace-outline")


def trace(recording_path, out, config=SHIPPED):
    result = subprocess.run([built("gestured"), "--replay", recording_path, "--config", config, "--svg", out], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result


@pytest.fixture(scope="module")
def demo_svg(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("trace") / "demo.svg")
    result = trace(DEMO, out)
    assert f"wrote {out}: 16 touches" in result.stderr
    return out


def touches(root):
    return [g for g in root.iter(SVG + "g") if "touch" in g.get("class", "").split()]


def test_svg_parses_and_has_every_touch_and_gesture(demo_svg):
    root = ET.parse(demo_svg).getroot()
    assert root.tag == SVG + "svg"
    assert len(touches(root)) == 16
    for g in touches(root):
        assert g.find(SVG + "polyline").get("points"), g.get("id")
    assert len([g for g in root.iter(SVG + "g") if g.get("class") == "touch-marks" and g.find(SVG + "circle[@class='start']") is not None]) == 16
    rows = [g for g in root.iter(SVG + "g") if "gesture-row" in g.get("class", "")]
    names = [g.find(SVG + "text").text.split(" (")[0] for g in rows]
    assert names == ["tap", "double-tap", "long-press", "two-finger-swipe", "three-finger-swipe", "pinch", "pinch", "rotate", "edge-left"]
    header = "".join(root.find(SVG + "g[@id='header']").itertext())
    assert "255.9 × 143.9 mm" in header and "touchscreen" in header


def outline(path):
    """Elements with an id or class, polylines with their point counts, and every text,
    indented by depth; no coordinates. Paths of this checkout become <root>."""
    lines = []

    def walk(element, depth):
        tag = element.tag.replace(SVG, "")
        ident = element.get("id")
        classes = element.get("class")
        text = (element.text or "").strip()
        if ident or classes or (tag == "text" and text):
            entry = tag + (f"#{ident}" if ident else "") + ("." + ".".join(classes.split()) if classes else "")
            if tag == "polyline":
                entry += f" [{len(element.get('points').split())} points]"
            if text:
                entry += f" {text!r}"
            lines.append("  " * depth + entry.replace(ROOT, "<root>"))
        for child in element:
            walk(child, depth + 1)

    walk(ET.parse(path).getroot(), 0)
    return "\n".join(lines) + "\n"


def test_golden_outline_of_the_demo_recording(demo_svg):
    actual = outline(demo_svg)
    if os.environ.get("GESTURED_RECORD_GOLDENS") == "1":
        os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
        with open(GOLDEN, "w") as f:
            f.write(actual)
    with open(GOLDEN) as f:
        expected = f.read()
    assert actual == expected, "the trace's structure changed; if on purpose: GESTURED_RECORD_GOLDENS=1 python3 -m pytest Tests/python/test_trace.py"


def render(svg_path, png_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.fail("chromium is not installed (scripts/setup-deps.sh installs it)")
    root = ET.parse(svg_path).getroot()
    width, height = int(float(root.get("width"))), int(float(root.get("height")))
    home = os.path.join(os.path.dirname(png_path), "chromium-home")
    result = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
         f"--user-data-dir={home}", f"--window-size={width},{height}", f"--screenshot={png_path}", "file://" + svg_path],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, HOME=home),
    )
    assert os.path.exists(png_path), result.stderr
    return read_png(png_path)


def hex_colour(text):
    return tuple(int(text[i : i + 2], 16) for i in (1, 3, 5))


def near(a, b, tolerance=60):
    return sum(abs(x - y) for x, y in zip(a, b)) <= tolerance


def surface_offset(root):
    m = re.match(r"translate\(([\d.]+) ([\d.]+)\)", root.find(SVG + "g[@id='surface']").get("transform"))
    return float(m.group(1)), float(m.group(2))


def test_chromium_draws_each_path_where_its_touch_was(demo_svg, tmp_path):
    width, height, pixels = render(demo_svg, str(tmp_path / "demo.png"))
    root = ET.parse(demo_svg).getroot()
    assert (width, height) == (int(float(root.get("width"))), int(float(root.get("height"))))
    white = sum(1 for row in pixels for p in row if p == (255, 255, 255))
    assert white < width * height * 0.95, "the picture is (almost) blank"
    ox, oy = surface_offset(root)
    marks = {g.get("id").replace("touch-marks-", "touch-"): g for g in root.iter(SVG + "g") if g.get("class") == "touch-marks"}
    hidden, paths = [], {}
    for g in touches(root):
        paths[g.get("id")] = [tuple(map(float, p.split(","))) for p in g.find(SVG + "polyline").get("points").split()]
    for g in touches(root):
        colour = hex_colour(g.find(SVG + "polyline").get("stroke"))
        points = [tuple(map(float, p.split(","))) for p in g.find(SVG + "polyline[@class='path-delivered']").get("points").split()]
        start = marks[g.get("id")].find(SVG + "circle[@class='start']")
        points.append((float(start.get("cx")), float(start.get("cy"))))
        if not any(near(pixels[round(py + oy)][round(px + ox)], colour) for px, py in points):
            hidden.append(g.get("id"))
    # A later path may lie over an earlier one (the pinch in retraces the pinch out), but the
    # markers are drawn over every path: each touch shows in its colour somewhere on its path,
    # unless it stayed on one spot where a later touch landed (a double tap's first tap), or
    # later touches' paths run over the whole of it (the middle finger of a three-finger
    # swipe along its own row: the fingers either side trace its path, and a later touch's
    # marks sit on its start).
    ids = list(paths)

    def distance_to_segment(p, a, b):
        (px, py), (ax, ay), (bx, by) = p, a, b
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
        return math.hypot(px - (ax + t * dx), py - (ay + t * dy))

    def on_path(p, path):
        if len(path) == 1:
            return math.hypot(p[0] - path[0][0], p[1] - path[0][1]) <= 8
        return any(distance_to_segment(p, a, b) <= 8 for a, b in zip(path, path[1:]))

    def covered(touch_id):
        here = paths[touch_id]
        later = ids[ids.index(touch_id) + 1 :]
        for other in later:
            sx, sy = paths[other][0]
            if all(abs(x - sx) <= 8 and abs(y - sy) <= 8 for x, y in here):
                return True
        return all(any(on_path(p, paths[other]) for other in later) for p in here)

    assert [h for h in hidden if not covered(h)] == []
    assert len(hidden) <= 2
    # Where no touch was (the surface's empty bottom-left, between grid lines) is the surface.
    surface = hex_colour("#f7f7f7")
    scale = float(root.find(SVG + "g[@id='surface']/" + SVG + "rect[@class='surface']").get("width")) / 255.9
    for mm_x, mm_y in ((15, 125), (35, 135), (225, 125)):
        assert near(pixels[round(oy + mm_y * scale)][round(ox + mm_x * scale)], surface, 12), (mm_x, mm_y)


@pytest.fixture(scope="module")
def touchpad_svg(tmp_path_factory):
    directory = tmp_path_factory.mktemp("touchpad")
    evemu = directory / "palm-edge-tap-scroll.evemu"
    evemu.write_text(recording([
        (0, 1.0, 1.7, line(70, 45, 74, 47, 0.7), 230),  # a palm: pressing 230 of 255
        (1, 2.5, 2.58, still(30, 20), 60),              # a tap
        (0, 3.5, 4.1, still(3, 50), 60),                # resting in the left edge band
        (0, 5.0, 5.5, line(40, 20, 80, 20, 0.5), 60),   # a finger moving across
        (0, 6.0, 6.4, line(40, 15, 40, 45, 0.4), 60),   # two fingers scrolling down
        (1, 6.0, 6.4, line(65, 15, 65, 45, 0.4), 60),
        (2, 6.5, 6.56, still(52, 30), 60),              # a tap right after the scroll
    ]))
    config = directory / "gestured.conf"
    config.write_text("[Gesture tap]\nKind=tap\n\n[Gesture pan]\nKind=pan\n")
    out = str(directory / "trace.svg")
    trace(str(evemu), out, str(config))
    return out


def test_filter_decisions_are_drawn_beside_the_touches(touchpad_svg, tmp_path):
    root = ET.parse(touchpad_svg).getroot()
    by_id = {g.get("id"): g for g in touches(root)}
    assert list(by_id) == [f"touch-{n}" for n in range(1, 8)]
    palm, tap, edge, finger, scroll_a, scroll_b, late_tap = by_id.values()
    marks = {g.get("id").replace("touch-marks-", "touch-"): g for g in root.iter(SVG + "g") if g.get("class") == "touch-marks"}

    def decisions(g):
        return [(t.get("class"), t.text) for t in marks[g.get("id")].iter(SVG + "text") if "decision" in t.get("class", "")]

    # The filter's own decisions, with its reasons.
    assert decisions(palm) == [("decision filtered", "palm, never passed on (pressure)")]
    assert decisions(edge) == [("decision filtered", "held back, never passed on (edge band)")]
    assert decisions(late_tap) == [("decision no-tap", "no tap (after scroll)")]
    for taken in (palm, edge):
        assert "filtered" in taken.get("class").split()
        assert taken.find(SVG + "polyline[@class='path-delivered']") is None
    for passed in (tap, finger, scroll_a, scroll_b):
        assert passed.find(SVG + "polyline[@class='path-delivered']") is not None
        assert decisions(passed) == [] and passed.get("class") == "touch"
    assert late_tap.get("class") == "touch no-tap"
    rows = [(g.get("id").rsplit("-", 1)[0], g.get("class")) for g in root.iter(SVG + "g") if "gesture-row" in g.get("class", "")]
    # One tap (the late one is none), the one-finger drag and the scroll.
    assert rows == [("gesture-tap", "gesture-row recognized"), ("gesture-pan", "gesture-row began changed ended"), ("gesture-pan", "gesture-row began changed ended")]
    # The palm's dashed path is drawn where it was: around (72 mm, 46 mm) of 100 × 65.
    width, height, pixels = render(touchpad_svg, str(tmp_path / "touchpad.png"))
    ox, oy = surface_offset(root)
    scale = float(root.find(SVG + "g[@id='surface']/" + SVG + "rect[@class='surface']").get("width")) / 100
    colour = hex_colour(palm.find(SVG + "polyline").get("stroke"))
    window = [pixels[round(oy + y)][round(ox + x)] for x in range(round(70 * scale), round(74 * scale)) for y in range(round(44.5 * scale), round(47.5 * scale))]
    assert any(near(p, colour) for p in window), "the palm's path is not where the palm was"


def test_svg_needs_a_replay_and_a_writable_place(tmp_path):
    result = subprocess.run([built("gestured"), "--svg", str(tmp_path / "x.svg")], capture_output=True, text=True)
    assert result.returncode == 64 and "--replay FILE --svg" in result.stderr
    result = subprocess.run([built("gestured"), "--replay", DEMO, "--config", SHIPPED, "--svg", "/nonexistent/dir/x.svg"], capture_output=True, text=True)
    assert result.returncode == 1 and "/nonexistent/dir/x.svg" in result.stderr
    result = subprocess.run([built("gestured"), "--replay", DEMO, "--config", SHIPPED, "--svg", "-"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("<?xml") and ET.fromstring(result.stdout.split("\n", 1)[1]) is not None
