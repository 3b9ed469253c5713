"""squid-openssl with stacks/squid/squid.conf as the stacks' egress proxy.

Started once, before the adapter answers hello (`squid -N`, with its certificate helpers), and reconfigured on acquire when the upstream
changes: upstream.conf rewritten, then SIGHUP, waiting until squid listens again.
"""
import os
import pwd
import re
import signal
import subprocess
import time

from proxy_mitmproxy import die_with_parent, free_port, stop_process, write_atomically

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.join(HERE, "..", "squid", "squid.conf")
START_SECONDS = 30
LISTENING = re.compile(rb"Accepting (SSL bumped )?HTTP Socket connections at")

# Each weakening puts back a line the configuration leaves out on purpose (the pitfalls of
# docs/certify-sandbox.md, "Using squid"): (lines that must be there, what replaces them).
WEAKENINGS = {
    "relaxed_header_parser": (["relaxed_header_parser off"], ["relaxed_header_parser on"]),
    "via": (["via off", "reply_header_access Via deny all", "reply_header_access X-Cache deny all",
             "reply_header_access X-Cache-Lookup deny all"], []),
}


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make_ca(state):
    ca_key, ca = os.path.join(state, "ca.key"), os.path.join(state, "ca.pem")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", ca_key, "-out", ca, "-days", "2", "-subj", "/CN=egress proxy CA",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    both = os.path.join(state, "ca-and-key.pem")
    with open(both, "w") as out:
        for part in (ca, ca_key):
            with open(part) as f:
                out.write(f.read())
    return ca, both


class Squid:
    name = "squid"

    def __init__(self, weakening=None):
        self.weakening = weakening
        self.proc = None

    def render(self):
        with open(CONF) as f:
            lines = f.read().split("\n")
        if self.weakening:
            drop, add = WEAKENINGS[self.weakening]
            missing = [line for line in drop if line not in lines]
            if missing:
                raise SystemExit("squid.conf lacks %s: the weakening would change nothing" % missing)
            lines = [line for line in lines if line not in drop] + add
        text = "\n".join(lines)
        for name, value in (("STATE", self.state), ("PORT", str(self.port)),
                            ("CA", self.ca_and_key)):
            text = text.replace("@%s@" % name, value)
        return text

    def start(self, state):
        os.makedirs(state)
        os.chmod(os.path.dirname(state), 0o711)  # squid's user reaches its own directory only
        self.state = state
        self.ca_file, self.ca_and_key = make_ca(state)
        subprocess.run(["/usr/lib/squid/security_file_certgen", "-c", "-s",
                        os.path.join(state, "ssl_db"), "-M", "4MB"], check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        self.port = free_port()
        self.conf = os.path.join(state, "squid.conf")
        self.upstream = None
        write_atomically(os.path.join(state, "upstream.conf"), "")
        write_atomically(self.conf, self.render())
        if os.getuid() == 0:  # squid drops to its cache_effective_user, proxy
            user = pwd.getpwnam("proxy")
            for root, dirs, files in os.walk(state):
                for name in dirs + files + ["."]:
                    os.chown(os.path.join(root, name), user.pw_uid, user.pw_gid)
        self.log = open(os.path.join(state, "squid.out"), "wb")
        self.proc = subprocess.Popen(["/usr/sbin/squid", "-N", "-f", self.conf],
                                     stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                     preexec_fn=die_with_parent)
        self.wait_listening(0)

    def listening_count(self):
        try:
            with open(os.path.join(self.state, "cache.log"), "rb") as f:
                return len(LISTENING.findall(f.read()))
        except OSError:
            return 0

    def wait_listening(self, before):
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit("squid exited; see %s/cache.log and squid.out" % self.state)
            if self.listening_count() > before:
                return
            time.sleep(0.05)
        raise SystemExit("squid did not listen within %d s" % START_SECONDS)

    def set_upstream(self, host, port, ca_pem):
        upstream = (host, port, ca_pem)
        if upstream == self.upstream:
            return None
        ca_file = os.path.join(self.state, "upstream-ca-%d.pem" % port)
        write_atomically(ca_file, ca_pem)
        os.chmod(ca_file, 0o644)
        # The peer gets the sandboxes' requests and nothing of squid's own: no ICP query, no
        # cache digest, and no netdb exchange, which squid (built --enable-icmp, as Debian's is)
        # otherwise sends as `GET /squid-internal-dynamic/netdb` 20 to 40 s after each
        # reconfigure, a request no sandbox made, in the upstream's log of whichever probe runs.
        write_atomically(os.path.join(self.state, "upstream.conf"), (
            "cache_peer %s parent %d 0 no-query no-digest no-netdb-exchange originserver "
            "name=upstream tls tls-cafile=%s tls-domain=prices.azure.com\n"
            "cache_peer_access upstream allow all\nnever_direct allow all\n") % (host, port, ca_file))
        os.chmod(os.path.join(self.state, "upstream.conf"), 0o644)
        before = self.listening_count()
        self.proc.send_signal(signal.SIGHUP)
        try:
            self.wait_listening(before)
        except SystemExit:
            return "squid did not reconfigure"
        self.upstream = upstream
        return None

    def stop(self):
        stop_process(self.proc)
