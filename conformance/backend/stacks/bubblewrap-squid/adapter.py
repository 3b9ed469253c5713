#!/usr/bin/env python3
"""The bubblewrap + squid stack as a backend-protocol adapter (docs/certify-sandbox.md, "Using squid").

  gate --suite backend --backend-adapter "python3 conformance/backend/stacks/bubblewrap-squid/adapter.py"

The sandbox tool: common/sandbox_bwrap.py. The proxy: squid -N with ../squid/squid.conf
(common/proxy_squid.py renders and starts it before hello). --weaken NAME turns a pitfall back on.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import stack  # noqa: E402

WEAKENINGS = {"relaxed_header_parser": "relaxed_header_parser on (squid's default)", "via": "no via off, no reply_header_access (squid's default)"}

if __name__ == "__main__":
    sys.exit(stack.run_stack("bubblewrap-squid", "bubblewrap", "squid", WEAKENINGS))
