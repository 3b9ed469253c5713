"""A sandbox backend made of two off-the-shelf parts, a sandbox tool and an egress proxy, served
through the backend protocol by example_adapter.py's Adapter (PROTOCOL.md).

A stack's adapter.py picks the parts (sandbox_bwrap or sandbox_firejail; proxy_mitmproxy or
proxy_squid) and calls main(). What it declares and refuses follows PROTOCOL.md's *What a sandbox
is*: posix, container isolation, EXEC and EGRESS_METHODS, closed and allowlist egress with the GET
token, and an allowlist rule only for prices.azure.com (the proxies' configuration names that host
alone).

Each sandbox is a state directory on the host (its /tmp and HOME, kept across execs) and, with
allowlist egress, a Unix socket the adapter listens on and relays to the proxy's loopback port:
the sandbox's network has loopback only, and sandbox_init.py, the first program inside, carries
its 127.0.0.1:3128 to that socket. Every exec is a fresh run of the sandbox tool over the same
directory, so nothing runs between execs and dispose only removes the directory.
"""
import os
import re
import shutil
import socket
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "protocol"))
import example_adapter  # noqa: E402  (the protocol loop, unchanged)

from bounded import run_bounded  # noqa: E402
from sandbox_init import pump  # noqa: E402  (the same copy as inside the sandbox)

ALLOWED_HOST = "prices.azure.com"
PROXY_PORT_INSIDE = 3128
CA_INSIDE = "/run/azure-pricing/egress-ca.pem"
SOCKET_INSIDE = "/run/azure-pricing/egress.sock"
ISOLATION = ["none", "runtime", "os_process", "container", "hardened_container", "microvm", "vm"]
HOST_NAME = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$")
TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
# A HOME in these would shadow or sit on the sandbox's read-only system directories.
SYSTEM_DIRS = ("/usr", "/etc", "/proc", "/dev", "/run", "/bin", "/sbin", "/lib", "/lib64")

Failure = example_adapter.Failure


def refuse(reason, message):
    raise Failure("refused", reason, message)


def check_spec(spec):
    """PROTOCOL.md: an invalid spec is sandbox_invalid_spec, then anything undeclared is
    spec_not_served; nothing is started for either."""
    rules = spec["egress_allow"]
    if spec["egress"] == "allowlist" and not rules:
        refuse("sandbox_invalid_spec", "An allowlist egress spec must name at least one host.")
    if spec["egress"] != "allowlist" and rules:
        refuse("sandbox_invalid_spec", "Only an allowlist egress spec may name hosts.")
    for rule in rules:
        methods = rule.get("methods")
        if not HOST_NAME.match(rule["host"]) or methods == [] or (
                methods and not all(TOKEN.match(m) for m in methods)):
            refuse("sandbox_invalid_spec", "An egress rule is not a lower-case host with methods.")
    if spec["os_family"] != "posix":
        refuse("spec_not_served", "The backend does not declare the spec's OS family.")
    if ISOLATION.index(spec["min_isolation"]) > ISOLATION.index("container"):
        refuse("spec_not_served", "The backend's isolation is below the spec's minimum.")
    needs = set(spec["requires"]) | {"EGRESS_METHODS" for r in rules if r.get("methods")}
    if not needs <= {"EXEC", "EGRESS_METHODS"}:
        refuse("spec_not_served", "The spec requires a capability the backend does not declare.")
    if spec["egress"] not in ("closed", "allowlist"):
        refuse("spec_not_served", "The backend does not declare the spec's egress mode.")
    if any(m != "GET" for r in rules for m in (r.get("methods") or [])):
        refuse("spec_not_served", "An egress rule allows a method the backend cannot enforce.")
    if spec["cleanup"] == "reclaim":
        refuse("spec_not_served", "Reclaim cleanup needs RECLAIM, which the backend lacks.")
    if any(r["host"] != ALLOWED_HOST for r in rules):
        refuse("spec_not_served", "The egress proxy lets through prices.azure.com only.")


class SocketRelay:
    """A Unix socket on the host, each connection carried to the proxy's loopback port."""

    def __init__(self, path, port):
        self.path, self.port = path, port
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        os.chmod(path, 0o777)
        self.listener.listen(64)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            try:
                up = socket.create_connection(("127.0.0.1", self.port), timeout=10)
                up.settimeout(None)
            except OSError:
                conn.close()
                continue
            for a, b in ((conn, up), (up, conn)):
                threading.Thread(target=pump, args=(a, b), daemon=True).start()

    def close(self):
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()


class Sandbox:
    def __init__(self, root, egress):
        self.root, self.egress = root, egress
        self.tmp = os.path.join(root, "tmp")
        self.home = os.path.join(root, "home")
        os.makedirs(self.tmp, mode=0o700)
        os.makedirs(self.home, mode=0o700)
        self.relay = None


class StackBackend:
    """example_adapter's Backend, with a sandbox tool and a proxy behind it."""

    declaration = {"os_families": ["posix"], "isolation": "container",
                   "capabilities": ["EXEC", "EGRESS_METHODS"],
                   "egress_modes": ["closed", "allowlist"],
                   "egress_method_tokens": ["GET"], "bounded_exec": True}

    def __init__(self, name, version, tool, proxy):
        self.name, self.version, self.tool, self.proxy = name, version, tool, proxy
        self.image = os.environ.get("AZURE_PRICING_IMAGE_DIR", "")
        if not os.path.isdir(os.path.join(self.image, "usr", "local")):
            sys.exit("%s: AZURE_PRICING_IMAGE_DIR names no image (the gate sets it)" % name)
        # The state lives beside nothing the suite plants: not the host's /tmp itself, not HOME.
        # Under /tmp itself, not TMPDIR: squid runs as its own user, who must reach its directory
        # (a test's TMPDIR lies under /root).
        self.state = tempfile.mkdtemp(prefix="azure-pricing-stack-", dir="/tmp")
        self.count = 0
        self.proxy.start(os.path.join(self.state, "proxy"))  # before hello: a long-lived helper

    def acquire(self, spec, key, upstream):
        check_spec(spec)
        if upstream is not None:
            error = self.proxy.set_upstream(upstream["host"], upstream["port"], upstream["ca_pem"])
            if error:
                raise Failure("failed", "egress_redirect_failed", "The proxy cannot take the upstream.")
        self.count += 1
        sandbox = Sandbox(os.path.join(self.state, "sandbox-%d" % self.count), spec["egress"])
        if spec["egress"] == "allowlist":
            sandbox.relay = SocketRelay(os.path.join(sandbox.root, "egress.sock"), self.proxy.port)
        return sandbox

    def exec_bounded(self, sandbox, argv, env, timeout_seconds, max_output_bytes):
        home = next((e[5:] for e in env if e.startswith("HOME=")), None)
        if home is not None and (not home.startswith("/") or os.path.normpath(home) != home or any(
                home == d or home.startswith(d + "/") for d in SYSTEM_DIRS)):
            return None, ("unusable_home", "HOME must be an absolute path outside the system.")
        if any("\0" in a for a in argv + env):
            return None, ("nul_in_argument", "An argument or variable holds a NUL byte.")
        egress_env = []
        if sandbox.relay is not None:
            egress_env = ["HTTPS_PROXY=http://127.0.0.1:%d" % PROXY_PORT_INSIDE,
                          "SSL_CERT_FILE=" + CA_INSIDE]
        env = [e for e in env if e.split("=", 1)[0] not in ("HTTPS_PROXY", "SSL_CERT_FILE")]
        owner = getattr(self.tool, "home_owner", None)
        if home is not None and home.startswith("/tmp/") and not make_home(
                sandbox.tmp, home[5:], owner):
            return None, ("unusable_home", "HOME must not pass through a link the program made.")
        command = self.tool.command(self, sandbox, argv, env + egress_env, home)
        result = run_bounded(command, timeout_seconds, max_output_bytes)
        if result[0] is None:
            return None, (result[1], "The exec passed its %s." % (
                "timeout" if result[1] == "timeout" else "output budget"))
        return result[0], None

    def init_spec(self, sandbox, argv, env):
        relay = None
        if sandbox.relay is not None:
            relay = {"port": PROXY_PORT_INSIDE, "socket": SOCKET_INSIDE}
        return {"argv": argv, "env": env, "relay": relay}

    def dispose(self, sandbox):
        if sandbox.relay is not None:
            sandbox.relay.close()
        shutil.rmtree(sandbox.root, ignore_errors=True)

    def close(self):
        shutil.rmtree(self.state, ignore_errors=True)
        self.proxy.stop()


def make_home(tmp, relative, owner=None):
    """HOME's directories under the sandbox's /tmp, made by the adapter (root) one by one, never
    through a link: an earlier exec's program may have left one there pointing into the host.
    With an owner (a sandbox tool whose program runs as that uid), each is given to it."""
    path = tmp
    for part in relative.split("/"):
        path = os.path.join(path, part)
        if os.path.islink(path):
            return False
        if not os.path.isdir(path):
            os.mkdir(path)
        if owner is not None:
            os.lchown(path, owner, owner)
    return True


def init_code():
    with open(os.path.join(HERE, "sandbox_init.py")) as f:
        return f.read()


class StackAdapter(example_adapter.Adapter):
    def op_hello(self, msg):
        answer = super().op_hello(msg)
        answer["backend"] = {"name": self.backend.name, "version": self.backend.version}
        return answer


def main(backend):
    adapter = StackAdapter(backend)
    status = 1
    try:
        for raw in example_adapter.lines(sys.stdin.buffer):
            reply = adapter.answer(raw)
            sys.stdout.write(example_adapter.json.dumps(reply, separators=(",", ":")) + "\n")
            sys.stdout.flush()
            if adapter.stopped:
                status = 0
                break
        else:
            adapter.dispose_all()
    finally:
        backend.close()
    return status


def run_stack(name, sandbox, proxy, weakenings):
    """The whole adapter of one stack: `adapter.py [--weaken NAME]`. `weakenings` maps each name
    the stack accepts to what it turns back on (the pitfalls its tests show the suite failing)."""
    import argparse
    parser = argparse.ArgumentParser(prog=name)
    parser.add_argument("--weaken", choices=sorted(weakenings),
                        help="; ".join("%s: %s" % kv for kv in sorted(weakenings.items())))
    args = parser.parse_args()
    tool = make_sandbox(sandbox, args.weaken)
    backend = StackBackend(name, "1" if not args.weaken else "1-weakened-" + args.weaken,
                           tool, make_proxy(proxy, args.weaken))
    return main(backend)


def make_sandbox(name, weakening):
    if name == "firejail":
        from sandbox_firejail import Firejail
        return Firejail(weakening=weakening if weakening in ("failed_bind", "no_chroot") else None)
    if name != "bubblewrap":
        raise SystemExit("no sandbox tool %s: bubblewrap and firejail are the ones shipped" % name)
    from sandbox_bwrap import Bwrap
    return Bwrap()


def make_proxy(name, weakening):
    if name == "mitmproxy":
        from proxy_mitmproxy import Mitmproxy
        return Mitmproxy(method_check="normalized" if weakening == "normalized_method" else "raw")
    from proxy_squid import Squid
    return Squid(weakening if weakening in ("relaxed_header_parser", "via") else None)
