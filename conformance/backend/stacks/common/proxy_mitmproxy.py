"""mitmdump with stacks/mitmproxy/egress_policy.py as the stacks' egress proxy.

Started once, before the adapter answers hello (the suite leaves processes that were there before
a probe alone), and reconfigured on acquire by rewriting its policy file, never restarted.
"""
import ctypes
import hashlib
import json
import os
import signal
import socket
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ADDON = os.path.join(HERE, "..", "mitmproxy", "egress_policy.py")
START_SECONDS = 30


def stop_process(proc):
    """Terminates a proxy that still runs, killing it after 5 s, and reaps it."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def die_with_parent():
    """In the child before exec: SIGKILL when the adapter dies, however it dies."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_atomically(path, text):
    with open(path + ".new", "w") as f:
        f.write(text)
    os.rename(path + ".new", path)


class Mitmproxy:
    name = "mitmproxy"

    def __init__(self, method_check="raw"):
        self.method_check = method_check
        self.proc = None

    def start(self, state):
        os.makedirs(state)
        self.state = state
        self.policy_file = os.path.join(state, "policy.json")
        self.policy = {"host": "prices.azure.com", "methods": ["GET"], "upstream": None}
        write_atomically(self.policy_file, json.dumps(self.policy))
        self.port = free_port()
        confdir = os.path.join(state, "conf")
        self.log = open(os.path.join(state, "mitmdump.log"), "wb")
        self.proc = subprocess.Popen(
            ["/usr/bin/mitmdump", "-q", "--listen-host", "127.0.0.1", "--listen-port",
             str(self.port), "-s", ADDON, "--set", "egress_policy=" + self.policy_file,
             "--set", "egress_method_check=" + self.method_check,
             "--set", "connection_strategy=lazy", "--set", "upstream_cert=false",
             "--set", "http2=false", "--set", "confdir=" + confdir],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            preexec_fn=die_with_parent)
        self.ca_file = os.path.join(confdir, "mitmproxy-ca-cert.pem")
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit("mitmdump exited at start; see " + self.log.name)
            if os.path.exists(self.ca_file):
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    return
                except OSError:
                    pass
            time.sleep(0.1)
        self.stop()
        raise SystemExit("mitmdump did not listen within %d s" % START_SECONDS)

    def set_upstream(self, host, port, ca_pem):
        ca_file = os.path.join(self.state, "upstream-%s.pem" % hashlib.sha256(
            ca_pem.encode()).hexdigest()[:16])
        if not os.path.exists(ca_file):
            write_atomically(ca_file, ca_pem)
        upstream = {"host": host, "port": port, "ca_file": ca_file}
        if self.policy["upstream"] != upstream:
            self.policy["upstream"] = upstream
            write_atomically(self.policy_file, json.dumps(self.policy))
        return None

    def stop(self):
        stop_process(self.proc)
