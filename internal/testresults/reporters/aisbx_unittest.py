"""aisbx unittest runner: runs unittest tests and prints one JSON line per
test event on stdout, in the same "@aisbx:" protocol as the pytest plugin.

Usage: python3 -m aisbx_unittest [TARGET ...]
A TARGET is a dotted name (package.module, module.Class, module.Class.test);
without targets, tests are discovered from the current directory
(test*.py). Standard library only.
"""

import inspect
import json
import os
import sys
import time
import traceback
import unittest

MARK = "@aisbx:"
_MAX_TEXT = 16384
_WORKDIR = os.path.realpath(os.environ.get("AISBX_WORKDIR") or os.getcwd())


def _emit(event):
    line = "\n" + MARK + json.dumps(event, separators=(",", ":")) + "\n"
    sys.__stdout__.write(line)
    sys.__stdout__.flush()


def _clip(text):
    text = "" if text is None else str(text)
    if len(text) > _MAX_TEXT:
        half = _MAX_TEXT // 2
        return text[:half] + "\n[... aisbx: %d characters elided ...]\n" % (len(text) - _MAX_TEXT) + text[-half:]
    return text


def _in_workspace(path):
    p = os.path.realpath(path)
    if not (p == _WORKDIR or p.startswith(_WORKDIR + os.sep)):
        return False
    return not any(x in ("site-packages", "dist-packages", ".venv") for x in p.split(os.sep))


def _describe(test):
    """Returns (id, name, file) for a test: name is Class::method."""
    tid = test.id()
    cls = type(test)
    method = getattr(test, "_testMethodName", None)
    if method and isinstance(test, unittest.TestCase):
        name = "%s::%s" % (cls.__name__, method)
    else:  # _ErrorHolder: a class or module fixture failed
        name = tid
    if tid.startswith("unittest.loader._FailedTest."):  # a module that failed to import
        name = tid[len("unittest.loader._FailedTest."):]
    try:
        f = inspect.getsourcefile(cls)
    except (TypeError, OSError):
        f = None
    if f is None or "unittest" in (cls.__module__ or "").split(".")[:1]:
        f = _file_of_id(tid)
    return tid, name, os.path.abspath(f) if f else ""


def _file_of_id(tid):
    # "tests.test_x.Class.test" or "setUpModule (tests.test_x)": find the
    # longest dotted prefix that is a file below the current directory.
    tid = tid.replace("unittest.loader._FailedTest.", "", 1)
    if "(" in tid and tid.endswith(")"):
        tid = tid[tid.index("(") + 1:-1]
    parts = tid.split(".")
    for n in range(len(parts), 0, -1):
        cand = os.path.join(*parts[:n]) + ".py"
        if os.path.isfile(cand):
            return cand
    return None


def _failure(err):
    etype, value, tb = err
    frames = [{"file": fs.filename, "line": fs.lineno} for fs in traceback.extract_tb(tb)]
    inside = [f for f in frames if _in_workspace(f["file"]) and not f["file"].endswith(os.sep + "aisbx_unittest.py")]
    msg = traceback.format_exception_only(etype, value)
    info = {
        "message": _clip("".join(msg).strip().splitlines()[0] if msg else str(etype)),
        "details": _clip("".join(traceback.format_exception(etype, value, tb))),
        "frames": inside[-10:],
    }
    if isinstance(value, SyntaxError) and value.filename and _in_workspace(value.filename):
        info["loc"] = {"file": value.filename, "line": value.lineno or 1}
    elif inside:
        info["loc"] = inside[-1]
    return info


class _Result(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._t0 = {}
        self._sub = {}

    def startTest(self, test):
        super().startTest(test)
        tid, name, f = _describe(test)
        self._t0[tid] = time.perf_counter()
        self._sub[tid] = None
        _emit({"e": "start", "id": tid, "name": name, "file": f})

    def _end(self, test, status, **extra):
        tid, name, f = _describe(test)
        self._sub.pop(tid, None)
        t0 = self._t0.pop(tid, None)
        ev = {"e": "end", "id": tid, "name": name, "file": f, "status": status,
              "ms": round((time.perf_counter() - t0) * 1000.0, 3) if t0 else 0.0}
        ev.update({k: v for k, v in extra.items() if v})
        _emit(ev)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._end(test, "passed")

    def stopTest(self, test):
        # A test whose subtests failed gets no addFailure: end it here.
        failed = self._sub.pop(test.id(), None)
        if failed and test.id() in self._t0:
            self._end(test, "failed", **failed)
        super().stopTest(test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._sub.pop(test.id(), None)
        self._end(test, "failed", **_failure(err))

    def addError(self, test, err):
        super().addError(test, err)
        self._sub.pop(test.id(), None)
        if not isinstance(test, unittest.TestCase) or test.id() not in self._t0:
            # setUpClass/setUpModule or an import failure: there was no start.
            tid, name, f = _describe(test)
            ev = {"e": "error", "id": tid, "name": name, "file": f}
            ev.update(_failure(err))
            _emit(ev)
            return
        self._end(test, "error", **_failure(err))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._end(test, "skipped", message=str(reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._end(test, "skipped", message="expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._end(test, "failed", message="unexpected success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        # A failed subtest fails its test, which unittest then reports as a
        # success; remember the first failure for addSuccess.
        if err is not None and self._sub.get(test.id()) is None:
            info = _failure(err)
            info["message"] = "%s: %s" % (subtest._subDescription(), info["message"])
            self._sub[test.id()] = info


def main(argv):
    sys.path.insert(0, os.getcwd())
    loader = unittest.TestLoader()
    try:
        if argv:
            suite = loader.loadTestsFromNames(argv)
        else:
            suite = loader.discover(".", pattern="test*.py", top_level_dir=".")
    except Exception as e:  # a target that does not import
        _emit({"e": "error", "id": " ".join(argv), "name": " ".join(argv), "file": "", **_failure(sys.exc_info())})
        _emit({"e": "done", "exit": 1})
        return 1
    _emit({"e": "run", "total": suite.countTestCases()})
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=_Result)
    result = runner.run(suite)
    code = 0 if result.wasSuccessful() else 1
    if result.testsRun == 0 and not result.errors:
        code = 5  # as pytest: nothing ran
    _emit({"e": "done", "exit": code})
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
