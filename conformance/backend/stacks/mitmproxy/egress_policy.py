"""A mitmproxy 8 addon that makes mitmdump a GET-only egress proxy for one host (PROTOCOL.md,
*The egress proxy*). Copy it and run, for example:

  mitmdump -q --listen-host 127.0.0.1 --listen-port 8081 -s egress_policy.py \
    --set egress_policy=/etc/egress/policy.json --set connection_strategy=lazy \
    --set upstream_cert=false --set http2=false --set confdir=/var/lib/egress/mitmproxy

with policy.json {"host": "prices.azure.com", "methods": ["GET"], "upstream": null}. The file is
read again whenever it changes, so an adapter reconfigures the running proxy by rewriting it
(atomically: write a temporary file, rename). "upstream": {"host", "port", "ca_file"} sends the
allowed host's traffic to that address instead, verified against ca_file for the allowed host's
name (conformance runs).

Why each option:
- connection_strategy=lazy: nothing connects upstream before a request is judged (eager, the
  default, opens the upstream connection when the CONNECT arrives);
- upstream_cert=false: no upstream connection to copy the certificate from during the client's
  handshake, for the same reason;
- http2=false: HTTP/1.1 on both sides, so the response is passed back as the upstream wrote it.

The pitfall this addon avoids: mitmproxy's `Request.method` is upper-cased (`get` reads `GET`)
while the client's own bytes are what mitmproxy forwards, so a check of `flow.request.method`
lets `get` through. The check reads `flow.request.data.method`, the bytes as sent.
`--set egress_method_check=normalized` turns the pitfall back on (a weakening the stack's tests
show the backend suite catching: egress.method_case).
"""
import json
import os

from mitmproxy import ctx, http

REASONS = {400: b"Bad Request", 403: b"Forbidden", 405: b"Method Not Allowed",
           421: b"Misdirected Request"}


def refuse(flow, status, why):
    flow.response = http.Response.make(status, why.encode() + b"\n",
                                       {"Content-Type": "text/plain", "Connection": "close"})


class EgressPolicy:
    def __init__(self):
        self.stamp = None
        self.policy = {"host": "", "methods": [], "upstream": None}
        self.tunnels = {}  # client connection id -> the CONNECT host it was allowed

    def load(self, loader):
        loader.add_option("egress_policy", str, "", "The policy JSON file.")
        loader.add_option("egress_method_check", str, "raw",
                          "raw: the method's bytes as sent; normalized: mitmproxy's upper-cased "
                          "Request.method (the pitfall, for tests).")

    def current(self):
        path = ctx.options.egress_policy
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_ino, st.st_size)
            if stamp != self.stamp:
                with open(path) as f:
                    self.policy = json.load(f)
                self.stamp = stamp
        except (OSError, ValueError):
            self.policy = {"host": "", "methods": [], "upstream": None}  # refuse everything
        return self.policy

    def http_connect(self, flow):
        policy = self.current()
        req = flow.request
        if req.data.http_version != b"HTTP/1.1":
            return refuse(flow, 400, "Only HTTP/1.1 CONNECT is served.")
        host = req.host.lower()
        if host.endswith("."):
            host = host[:-1]
        if req.port != 443 or host != policy["host"]:  # equality: no suffix, no IP literal
            return refuse(flow, 403, "The destination is not allowed.")
        self.tunnels[flow.client_conn.id] = host

    def client_disconnected(self, client):
        self.tunnels.pop(client.id, None)

    def requestheaders(self, flow):
        self.judge(flow)

    def request(self, flow):
        self.judge(flow)  # again after the body: the upstream is not contacted before this

    def judge(self, flow):
        if flow.response is not None or flow.request.data.method == b"CONNECT":
            return
        policy = self.current()
        req = flow.request
        host = self.tunnels.get(flow.client_conn.id)
        if host is None or not flow.client_conn.tls_established:
            return refuse(flow, 405, "Only CONNECT is served.")
        if ctx.options.egress_method_check == "normalized":
            method = req.method.encode()  # the pitfall: `get` reads as `GET`
        else:
            method = req.data.method
        if method not in [m.encode() for m in policy["methods"]]:
            return refuse(flow, 405, "The method is not allowed.")
        hosts = req.headers.get_all("Host")
        if len(hosts) != 1 or hosts[0] not in (host, host + ":443"):
            return refuse(flow, 421, "Host does not name the CONNECT host.")
        if flow.client_conn.sni != host:
            return refuse(flow, 421, "The TLS server name is not the CONNECT host.")
        authority = req.data.authority.decode("latin-1")
        if (authority and authority not in (host, host + ":443")) or not req.data.path.startswith(b"/"):
            return refuse(flow, 421, "The target does not name the CONNECT host.")
        if "Content-Length" in req.headers or "Transfer-Encoding" in req.headers:
            return refuse(flow, 400, "A request body is not allowed.")
        connection = [t.strip().lower() for t in ",".join(req.headers.get_all("Connection")).split(",")]
        if "Upgrade" in req.headers or "upgrade" in connection:
            return refuse(flow, 400, "Upgrade is not allowed.")

    def server_connect(self, data):
        upstream = self.current().get("upstream")
        if upstream:
            data.server.address = (upstream["host"], upstream["port"])
            data.server.sni = self.current()["host"]
            if ctx.options.ssl_verify_upstream_trusted_ca != upstream["ca_file"]:
                ctx.options.update(ssl_verify_upstream_trusted_ca=upstream["ca_file"])
        else:
            data.server.sni = data.server.address[0]


addons = [EgressPolicy()]
