"""Headless chromium for the report pages' tests: load a page offline, dump its DOM or a screenshot.

A Session starts one browser and drives it over the DevTools protocol on a pipe, so a test
loads a page under many queries for the cost of one start (about 0.3 s a load, where a browser
started per page with --dump-dom costs 2 to 4 s on this 2-core machine).

The browser gets a fresh profile directory, removed afterwards; every call waits under a
deadline, and at the end (or on any failure) the whole process group is killed and every process
the browser started is reaped (this process becomes their subreaper, since chromium's zygotes
outlive its main process). A browser that is missing, will not start or writes nothing raises
BrowserError with the tail of its stderr: a test that cannot run its browser fails, saying why.
"""
import base64
import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = (1280, 800)
DEADLINE_SECONDS = 30
# Without the background-networking flags chromium keeps trying to reach Google's services,
# which on a closed network floods the log and delays the dump; the page itself needs nothing.
FLAGS = [
    "--headless",
    "--no-sandbox",  # the tests run as root, where chromium refuses its own sandbox
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=%d,%d" % VIEWPORT,
]
STDERR_TAIL_LINES = 15
_PR_SET_CHILD_SUBREAPER = 36


class BrowserError(Exception):
    pass


def _become_subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise BrowserError("prctl(PR_SET_CHILD_SUBREAPER) failed: errno %d" % ctypes.get_errno())


def _children(pgid=None):
    """This process's children (orphans it adopted as subreaper included), those of one
    process group when pgid is given; read from /proc."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        # After the command's closing parenthesis: state, ppid, pgrp, ...
        fields = stat[stat.rfind(")") + 2:].split()
        if fields[1] == me and (pgid is None or fields[2] == str(pgid)):
            found.append(int(entry))
    return found


def _reap_group(pgid, deadline):
    """Kills and waits for every process of the browser's group that is, or became, our child.

    Only that group's: another Session's browser, a child of this process too, is left alone.
    """
    while True:
        _kill_group(pgid)
        left = _children(pgid)
        for pid in left:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
        if not left:
            return
        if time.monotonic() > deadline:
            raise BrowserError("chromium's processes %s did not exit after SIGKILL" % left)
        time.sleep(0.05)


def _kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _tail(text):
    lines = text.decode("utf-8", "replace").splitlines()
    return "\n".join(lines[-STDERR_TAIL_LINES:]) or "(no stderr)"


def check_installed(expected_version_file=None):
    """Raises BrowserError when chromium is absent, or is not the version the test's key names."""
    if not os.access(CHROMIUM, os.X_OK):
        raise BrowserError(
            "%s is not installed: `tools/bazel test` installs Debian's chromium for these tests "
            "(or run `apt-get install chromium`)" % CHROMIUM)
    if expected_version_file is None:
        return
    with open(expected_version_file, encoding="utf-8") as f:
        expected = f.read().strip()
    got = installed_version()
    if got != expected:
        raise BrowserError(
            "this test's cache key names %r but %r is installed: run it through tools/bazel, "
            "which keys the browser tests by chromium's version (tools/build/host_browser.bzl)"
            % (expected, got))


def installed_version():
    """'chromium VERSION' as dpkg records it (the form tools/bazel passes to the build)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=chromium ${Version}", "chromium"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=30,
                         check=False)
    return out.stdout.decode().strip() or "chromium not installed"


def page_url(path, query=""):
    url = "file://" + urllib.parse.quote(os.path.abspath(path))
    return url + ("?" + query if query else "")


def png_size(png_path):
    """(width, height) of a PNG file; BrowserError when it is not one."""
    with open(png_path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise BrowserError("%s is not a PNG file" % png_path)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


class Session:
    """One headless chromium driven over --remote-debugging-pipe, every call under a deadline.

    with Session() as browser: browser.dom(path, query); browser.screenshot(path, png)
    """

    def __init__(self, deadline_seconds=DEADLINE_SECONDS):
        self.deadline_seconds = deadline_seconds
        self.proc = None
        self.profile = None
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session_id = None

    def __enter__(self):
        _become_subreaper()
        self.profile = tempfile.mkdtemp(prefix="chromium-profile.")
        to_browser, self.write_fd = os.pipe()
        self.read_fd, from_browser = os.pipe()
        # chromium reads the protocol on fd 3 and writes it on fd 4.
        def dup_pipes():
            # Through free numbers first: either end may itself be fd 3 or 4.
            os.dup2(to_browser, 100)
            os.dup2(from_browser, 101)
            os.dup2(100, 3)
            os.dup2(101, 4)
        self.stderr = tempfile.TemporaryFile()
        argv = [CHROMIUM] + FLAGS + ["--user-data-dir=" + self.profile,
                                     "--remote-debugging-pipe", "about:blank"]
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.stderr,
                # Python's own descriptors are not inheritable; dup_pipes' fds 3 and 4 are,
                # and close_fds would close them after it ran.
                start_new_session=True, preexec_fn=dup_pipes, close_fds=False,
                env=dict(os.environ, HOME=self.profile, TMPDIR=self.profile))
        except OSError as e:
            self.__exit__(None, None, None)
            raise BrowserError("cannot start %s: %s" % (CHROMIUM, e)) from e
        finally:
            os.close(to_browser)
            os.close(from_browser)
        try:
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            self.session_id = self.call("Target.attachToTarget", targetId=target,
                                        flatten=True)["sessionId"]
            self.call("Page.enable")
            # The window's size includes what headless chromium keeps for its (absent) frame,
            # which leaves the page 1280x713; a reader's 1280x800 window is what is judged.
            self.call("Emulation.setDeviceMetricsOverride", width=VIEWPORT[0],
                      height=VIEWPORT[1], deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        if self.proc is not None:
            _kill_group(self.proc.pid)
            self.proc.wait()
            _reap_group(self.proc.pid, time.monotonic() + 10)
        for fd in ("write_fd", "read_fd"):
            if getattr(self, fd, None) is not None:
                os.close(getattr(self, fd))
                setattr(self, fd, None)
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)
        if getattr(self, "stderr", None) is not None:
            self.stderr.close()
        return False

    def _stderr_tail(self):
        self.stderr.seek(0)
        return _tail(self.stderr.read())

    def _fail(self, what):
        raise BrowserError("%s; chromium's stderr ends:\n%s" % (what, self._stderr_tail()))

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail("chromium did not answer within %d s" % self.deadline_seconds)
            ready, _, _ = select.select([self.read_fd], [], [], left)
            if ready:
                chunk = os.read(self.read_fd, 1 << 20)
                if not chunk:
                    try:
                        self.proc.wait(timeout=5)
                    except subprocess.TimeoutExpired:
                        pass
                    self._fail("chromium exited with status %s (it closed its protocol pipe)"
                               % self.proc.returncode)
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, **params):
        """Sends one command and returns its result; events that arrive meanwhile are kept."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session_id and not method.startswith("Target."):
            message["sessionId"] = self.session_id
        try:
            os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            self.proc.wait(timeout=self.deadline_seconds)
            self._fail("chromium exited with status %s before %s" % (self.proc.returncode, method))
        deadline = time.monotonic() + self.deadline_seconds
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") != self.next_id:
                self.events.append(answer)
                continue
            if "error" in answer:
                self._fail("%s failed: %s" % (method, answer["error"]))
            return answer["result"]

    def _wait_event(self, method, deadline):
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def load(self, path, query=""):
        """Navigates to the page and waits for its load event and the scripts after it."""
        self.events = []
        deadline = time.monotonic() + self.deadline_seconds
        result = self.call("Page.navigate", url=page_url(path, query))
        if result.get("errorText"):
            self._fail("loading %s failed: %s" % (path, result["errorText"]))
        self._wait_event("Page.loadEventFired", deadline)
        # What the page does in its own load handlers has run once a task queued now runs.
        self.evaluate("new Promise(r => setTimeout(r, 0))")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            self._fail("evaluating %r threw: %s" % (expression, result["exceptionDetails"]))
        return result["result"].get("value")

    def dom(self, path, query=""):
        """The page's DOM after its scripts ran, serialised like --dump-dom."""
        self.load(path, query)
        return self.evaluate("document.documentElement.outerHTML")

    def screenshot(self, path, png_path, query=""):
        """A VIEWPORT-sized PNG of the page's top, written to png_path."""
        self.load(path, query)
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(png_path, "wb") as f:
            f.write(base64.b64decode(data))
