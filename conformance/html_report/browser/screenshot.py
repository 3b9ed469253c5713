"""usage: screenshot PAGE.html OUT.png [--query QUERY]

Loads PAGE.html offline in headless chromium (headless.py) at 1280x800 and writes the top of it
as OUT.png; prints the chromium version it used. For tools/docs/gate_screenshot.
"""
import argparse
import os
import sys

import headless


def main():
    parser = argparse.ArgumentParser(prog="screenshot")
    parser.add_argument("page")
    parser.add_argument("png")
    parser.add_argument("--query", default="")
    args = parser.parse_args()
    # `bazel run` starts this in its runfiles; the paths a user gives are relative to where
    # they typed the command.
    here = os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd())
    page, png = (os.path.join(here, p) for p in (args.page, args.png))
    try:
        headless.check_installed()
        with headless.Session() as browser:
            browser.screenshot(page, png, args.query)
        width, height = headless.png_size(png)
    except (headless.BrowserError, OSError) as e:
        print("screenshot: %s" % e, file=sys.stderr)
        return 1
    print("%s: %dx%d, %s" % (args.png, width, height, headless.installed_version()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
