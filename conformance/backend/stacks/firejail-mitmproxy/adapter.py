#!/usr/bin/env python3
"""The firejail + mitmproxy stack as a backend-protocol adapter (docs/certify-sandbox.md, "Using firejail" and "Using mitmproxy").

  gate --suite backend --backend-adapter "python3 conformance/backend/stacks/firejail-mitmproxy/adapter.py"

The sandbox tool: common/sandbox_firejail.py (firejail --chroot into a root the adapter builds,
with ../firejail/firejail.config). The proxy: mitmdump with ../mitmproxy/egress_policy.py
(common/proxy_mitmproxy.py starts it before hello). --weaken NAME turns a pitfall back on.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import stack  # noqa: E402

WEAKENINGS = {
    "no_chroot": "firejail over the host's root, the image bound with --bind, the rest blacklisted",
    "failed_bind": "no_chroot with /tmp bound before the image's /etc (which lies under /tmp)",
    "normalized_method": "the addon checks the upper-cased Request.method",
}

if __name__ == "__main__":
    sys.exit(stack.run_stack("firejail-mitmproxy", "firejail", "mitmproxy", WEAKENINGS))
