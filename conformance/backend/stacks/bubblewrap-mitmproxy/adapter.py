#!/usr/bin/env python3
"""The bubblewrap + mitmproxy stack as a backend-protocol adapter (docs/certify-sandbox.md, "Using mitmproxy").

  gate --suite backend --backend-adapter "python3 conformance/backend/stacks/bubblewrap-mitmproxy/adapter.py"

The sandbox tool: common/sandbox_bwrap.py. The proxy: mitmdump with ../mitmproxy/egress_policy.py
(common/proxy_mitmproxy.py starts it before hello). --weaken NAME turns a pitfall back on.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import stack  # noqa: E402

WEAKENINGS = {"normalized_method": "the addon checks the upper-cased Request.method"}

if __name__ == "__main__":
    sys.exit(stack.run_stack("bubblewrap-mitmproxy", "bubblewrap", "mitmproxy", WEAKENINGS))
