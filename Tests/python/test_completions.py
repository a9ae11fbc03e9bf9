"""Shell completions (completions/) exercised in the real shells: bash through its
completion function with COMP_WORDS, fish through `complete -C`, zsh through a Tab typed
into an interactive zsh in a pseudo-terminal (zsh-complete.zsh). Gesture names and device
nodes come from a real daemon on a private socket, with a configuration of its own."""

import os
import re
import shutil
import subprocess

import pytest

from project_support import DEMO, ROOT, built
from gestured.testing import ReplayDaemon

COMPLETIONS = os.path.join(ROOT, "completions")
CONFIG = "[Gesture zoom-out]\nKind=pinch\n\n[Gesture flick-left]\nKind=swipe\n\n[Gesture flick-right]\nKind=swipe\n"


def env(bin_dir):
    return dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))


def bash_complete(bin_dir, *words):
    """COMPREPLY of the completion function bash registered for words[0] (`complete -p`),
    the last word being the one completed."""
    script = f"""
source {COMPLETIONS}/bash/{words[0]}
spec=$(complete -p {words[0]}) || exit 3
[[ $spec =~ -F\\ ([^ ]+) ]] || exit 4
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${{#COMP_LINE}}
"${{BASH_REMATCH[1]}}" "$1" "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    result = subprocess.run(["bash", "--norc", "-c", script, "bash", *words], env=env(bin_dir), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.splitlines() if line]


def fish_complete(bin_dir, line):
    if not shutil.which("fish"):
        pytest.skip("fish is not installed (scripts/setup-deps.sh installs it)")
    command = line.split()[0]
    script = f"source {COMPLETIONS}/fish/{command}.fish; complete -C {quote_fish(line)}"
    result = subprocess.run(["fish", "--no-config", "-c", script], env=env(bin_dir), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return [l.split("\t")[0] for l in result.stdout.splitlines() if l]


def quote_fish(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def zsh_complete(bin_dir, line):
    if not shutil.which("zsh"):
        pytest.skip("zsh is not installed (scripts/setup-deps.sh installs it)")
    result = subprocess.run(
        ["zsh", "-f", os.path.join(os.path.dirname(__file__), "zsh-complete.zsh"), os.path.join(COMPLETIONS, "zsh"), line],
        env=env(bin_dir), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return [l for l in result.stdout.splitlines() if l]


def help_options(bin_dir, program):
    text = subprocess.run([os.path.join(bin_dir, program), "--help"], capture_output=True, text=True).stdout
    return sorted(set(re.findall(r"^\s+(--[a-z-]+)", text, re.M)))


def gesturectl_verbs(bin_dir):
    text = subprocess.run([os.path.join(bin_dir, "gesturectl"), "--help"], capture_output=True, text=True).stdout
    return sorted(set(re.findall(r"^  ([a-z][a-z-]+)\b", text, re.M)) | set(re.findall(r"\(alias: ([a-z-]+)\)", text)))


@pytest.fixture(scope="module")
def daemon(bin_dir):
    # The demo plays slowly so its device stays open while the tests run; the daemon stops
    # with the module.
    with ReplayDaemon(DEMO, config=CONFIG, binary=built("gestured"), speed=0.01) as d:
        yield d


def test_bash_registers_functions_and_completes_verbs(bin_dir):
    verbs = gesturectl_verbs(bin_dir)
    assert {"listen", "record", "gestures", "check-config", "list-devices"} <= set(verbs)
    assert sorted(bash_complete(bin_dir, "gesturectl", "")) == sorted(verbs)
    assert bash_complete(bin_dir, "gesturectl", "li") == ["list-devices", "listen"]
    assert bash_complete(bin_dir, "gesturectl", "--socket", "/x", "rec") == ["record"]


def test_bash_offers_every_option_each_program_has(bin_dir):
    assert sorted(bash_complete(bin_dir, "gestured", "--")) == help_options(bin_dir, "gestured")
    listen = bash_complete(bin_dir, "gesturectl", "listen", "--")
    for option in ("--gesture", "--kind", "--state", "--device", "--raw", "--count", "--wait", "--json"):
        assert option in listen
    assert "--actions" not in listen
    run = bash_complete(bin_dir, "gesturectl", "run", "--")
    assert "--actions" in run and "--gesture" not in run
    # Every option of gesturectl's help is offered for some verb.
    offered = set()
    for verb in gesturectl_verbs(bin_dir):
        offered |= set(bash_complete(bin_dir, "gesturectl", verb, "--"))
    offered |= set(bash_complete(bin_dir, "gesturectl", "--"))
    assert set(help_options(bin_dir, "gesturectl")) <= offered


def test_bash_completes_lists_after_the_last_comma(bin_dir):
    assert bash_complete(bin_dir, "gesturectl", "listen", "--kind", "swipe,p") == ["swipe,pan", "swipe,pinch"]
    assert bash_complete(bin_dir, "gesturectl", "listen", "--state", "b") == ["began"]


def test_bash_gesture_names_and_devices_come_from_the_daemon(bin_dir, daemon):
    names = bash_complete(bin_dir, "gesturectl", "--socket", daemon.socket, "listen", "--gesture", "")
    assert names == ["zoom-out", "flick-left", "flick-right"]
    assert bash_complete(bin_dir, "gesturectl", "--socket", daemon.socket, "listen", "--gesture", "zoom-out,fl") == [
        "zoom-out,flick-left",
        "zoom-out,flick-right",
    ]
    devices = bash_complete(bin_dir, "gesturectl", "--socket", daemon.socket, "listen", "--device", "")
    assert "replay:" + DEMO in devices


def test_gestures_verb_reads_a_given_file(bin_dir, tmp_path):
    conf = tmp_path / "g.conf"
    conf.write_text(CONFIG + "\n[Gesture off]\nKind=tap\nEnabled=no\n")
    result = subprocess.run([os.path.join(bin_dir, "gesturectl"), "gestures", str(conf)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["zoom-out", "flick-left", "flick-right"]
    conf.write_text("[Gesture x]\nKind=warp\n")
    result = subprocess.run([os.path.join(bin_dir, "gesturectl"), "gestures", str(conf)], capture_output=True, text=True)
    assert result.returncode == 78 and result.stdout == "" and "check-config" in result.stderr


def test_fish_completes_verbs_options_and_daemon_names(bin_dir, daemon):
    assert set(fish_complete(bin_dir, "gesturectl li")) == {"list-devices", "listen"}
    assert set(fish_complete(bin_dir, "gesturectl listen --kind swipe,p")) == {"swipe,pan", "swipe,pinch"}
    assert set(fish_complete(bin_dir, f"gesturectl --socket {daemon.socket} listen --gesture ")) == {"zoom-out", "flick-left", "flick-right"}
    assert "replay:" + DEMO in fish_complete(bin_dir, f"gesturectl --socket {daemon.socket} listen --device ")
    assert set(fish_complete(bin_dir, "gestured --")) == set(help_options(bin_dir, "gestured"))
    verbs = fish_complete(bin_dir, "gesturectl ")
    assert set(gesturectl_verbs(bin_dir)) <= set(verbs)


def test_zsh_completes_verbs_options_and_daemon_names(bin_dir, daemon):
    assert zsh_complete(bin_dir, "gesturectl li") == ["list-devices", "listen"]
    assert zsh_complete(bin_dir, "gesturectl listen --st") == ["--state"]
    assert zsh_complete(bin_dir, "gesturectl listen --state ") == sorted(["began", "changed", "ended", "cancelled", "recognized"])
    assert zsh_complete(bin_dir, f"gesturectl --socket {daemon.socket} listen --gesture ") == sorted(["zoom-out", "flick-left", "flick-right"])
    assert set(zsh_complete(bin_dir, "gestured --")) == set(help_options(bin_dir, "gestured"))
