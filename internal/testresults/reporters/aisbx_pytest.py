"""aisbx pytest plugin: one JSON line per test event on stdout.

Loaded with `-p aisbx_pytest` (PYTHONPATH points at this file's directory).
Each event line starts with "@aisbx:" so it can be told apart from pytest's
own output, with which it may share a line. Standard library only.
"""

import json
import os
import re
import sys

MARK = "@aisbx:"
_MAX_TEXT = 16384

# Capture is not started yet when -p plugins are imported: keep a private
# handle on the real stdout, which pytest's fd capture later replaces.
try:
    _FD = os.dup(1)
except OSError:
    _FD = None

_WORKDIR = os.path.realpath(os.environ.get("AISBX_WORKDIR") or os.getcwd())


def _emit(event):
    line = "\n" + MARK + json.dumps(event, separators=(",", ":")) + "\n"
    data = line.encode("utf-8", "replace")
    if _FD is None:
        sys.__stdout__.write(line)
        sys.__stdout__.flush()
        return
    while data:
        n = os.write(_FD, data)
        data = data[n:]


def _clip(text):
    if text is None:
        return ""
    text = str(text)
    if len(text) > _MAX_TEXT:
        half = _MAX_TEXT // 2
        return text[:half] + "\n[... aisbx: %d characters elided ...]\n" % (len(text) - _MAX_TEXT) + text[-half:]
    return text


def _in_workspace(path):
    if not path:
        return False
    p = os.path.realpath(str(path))
    if not (p == _WORKDIR or p.startswith(_WORKDIR + os.sep)):
        return False
    parts = p.split(os.sep)
    return not any(x in ("site-packages", "dist-packages", ".venv", "node_modules") for x in parts)


def _frames(excinfo):
    out = []
    try:
        for entry in excinfo.traceback:
            out.append({"file": str(entry.path), "line": entry.lineno + 1})
    except Exception:  # a broken traceback must not break the run
        pass
    return out


def _location(excinfo, frames):
    """The failure location: where the exception was raised when that is in
    the workspace, else the deepest traceback entry inside the workspace."""
    try:
        crash = excinfo._getreprcrash()
        if crash is not None and _in_workspace(crash.path):
            return {"file": str(crash.path), "line": crash.lineno}
    except Exception:
        pass
    for f in reversed(frames):
        if _in_workspace(f["file"]):
            return f
    return None


_state = {}


def pytest_collection_finish(session):
    _emit({"e": "run", "total": len(session.items)})


_config = {}


def pytest_configure(config):
    _config["rootpath"] = str(getattr(config, "rootpath", None) or config.rootdir)


# Where an import or syntax error happened, as Python and as pytest's short
# tracebacks print it.
_FILE_LINE = re.compile(r'File "([^"]+)", line (\d+)|^([^\s:][^:]*\.py):(\d+): in ', re.M)


def pytest_collectreport(report):
    if not report.failed:
        return
    text = str(report.longrepr)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    path = report.nodeid.split("::", 1)[0]
    ev = {
        "e": "error",
        "id": report.nodeid,
        "file": os.path.join(_config.get("rootpath", os.getcwd()), path) if path else "",
        "message": _clip(re.sub(r"^E\s{2,}", "", lines[-1]) if lines else "collection failed"),
        "details": _clip(text),
    }
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and _in_workspace(crash.path):
        ev["loc"] = {"file": str(crash.path), "line": crash.lineno}
    else:
        # An import or syntax error names its file and line in the text.
        root = _config.get("rootpath", os.getcwd())
        for m in reversed(list(_FILE_LINE.finditer(text))):
            f, line = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            f = os.path.join(root, f)
            if _in_workspace(f):
                ev["loc"] = {"file": f, "line": int(line)}
                break
    _emit(ev)


def pytest_runtest_logstart(nodeid, location):
    _state[nodeid] = {"outcome": "passed", "duration": 0.0}
    _emit({"e": "start", "id": nodeid, "name": _name(nodeid), "file": _abs(location[0])})


def _name(nodeid):
    return nodeid.split("::", 1)[1] if "::" in nodeid else nodeid


def _abs(path):
    return os.path.abspath(path) if path else ""


try:
    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        rep = outcome.get_result()
        if call.excinfo is not None and rep.failed:
            frames = _frames(call.excinfo)
            rep._aisbx = {
                "frames": [f for f in frames if _in_workspace(f["file"])][-10:],
                "loc": _location(call.excinfo, frames),
                "message": _clip(call.excinfo.exconly()).splitlines()[0] if call.excinfo.exconly() else "",
            }
except ImportError:  # imported outside pytest: nothing to hook
    pass


def pytest_runtest_logreport(report):
    st = _state.setdefault(report.nodeid, {"outcome": "passed", "duration": 0.0})
    st["duration"] += getattr(report, "duration", 0.0) or 0.0
    if report.when == "call" and hasattr(report, "wasxfail"):
        st["outcome"] = "skipped" if report.skipped else "failed"
        reason = str(report.wasxfail).replace("reason:", "").strip()
        st["message"] = ("xfail: " + reason if reason else "expected failure") if report.skipped else "unexpectedly passed (strict xfail)"
    elif report.failed:
        if st["outcome"] != "failed":
            st["outcome"] = "failed" if report.when == "call" else "error"
            info = getattr(report, "_aisbx", None) or {}
            st["message"] = info.get("message") or ""
            st["loc"] = info.get("loc")
            st["frames"] = info.get("frames") or []
            st["details"] = _clip(report.longreprtext)
    elif report.skipped and st["outcome"] == "passed":
        st["outcome"] = "skipped"
        lr = report.longrepr
        if isinstance(lr, tuple) and len(lr) == 3:
            st["message"] = str(lr[2])
    sections = [s for s in (getattr(report, "sections", None) or []) if s[1]]
    if sections:
        st["output"] = _clip("\n".join("%s\n%s" % (title, body) for title, body in sections))


def pytest_runtest_logfinish(nodeid, location):
    st = _state.pop(nodeid, {"outcome": "passed", "duration": 0.0})
    ev = {
        "e": "end",
        "id": nodeid,
        "name": _name(nodeid),
        "file": _abs(location[0]),
        "status": st["outcome"],
        "ms": round(st["duration"] * 1000.0, 3),
    }
    for key in ("message", "details", "loc", "frames", "output"):
        if st.get(key):
            ev[key] = st[key]
    _emit(ev)


def pytest_sessionfinish(session, exitstatus):
    _emit({"e": "done", "exit": int(exitstatus)})
