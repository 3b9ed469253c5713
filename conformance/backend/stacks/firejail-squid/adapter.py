#!/usr/bin/env python3
"""The firejail + squid stack as a backend-protocol adapter (docs/certify-sandbox.md, "Using firejail" and "Using squid").

  gate --suite backend --backend-adapter "python3 conformance/backend/stacks/firejail-squid/adapter.py"

The sandbox tool: common/sandbox_firejail.py (firejail --chroot into a root the adapter builds,
with ../firejail/firejail.config). The proxy: squid -N with ../squid/squid.conf
(common/proxy_squid.py renders and starts it before hello). --weaken NAME turns a pitfall back on.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import stack  # noqa: E402

WEAKENINGS = {
    "no_chroot": "firejail over the host's root, the image bound with --bind, the rest blacklisted",
    "failed_bind": "no_chroot with /tmp bound before the image's /etc (which lies under /tmp)",
}

if __name__ == "__main__":
    sys.exit(stack.run_stack("firejail-squid", "firejail", "squid", WEAKENINGS))
