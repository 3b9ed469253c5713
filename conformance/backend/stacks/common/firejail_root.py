"""Builds a firejail sandbox's root, then runs firejail (sandbox_firejail.py says why).

  unshare --mount --propagation private -- python3 -I -S firejail_root.py PLAN

PLAN is JSON: {"root": DIR, "config": FIREJAIL_CONFIG, "mounts": [[SOURCE, TARGET, READ_ONLY],
...], "firejail": ARGV}. Run as root in a private mount namespace: every mount here is gone
when firejail ends. The first mount that fails ends it with status 125 and one line on stderr,
before firejail starts: a sandbox is never run on a root that is not the one planned.
"""
import json
import os
import subprocess
import sys


def mount(source, target, read_only):
    # A file is bound onto a file, a directory or socket's parent onto a directory.
    if not os.path.isdir(source) and not os.path.exists(target):
        open(target, "a").close()
    subprocess.run(["mount", "--rbind" if source == "/usr" else "--bind", source, target],
                   check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    if read_only:
        subprocess.run(["mount", "-o", "remount,bind,ro", target], check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def main():
    plan = json.loads(sys.argv[1])
    root = plan["root"]
    try:
        mount(plan["config"], "/etc/firejail/firejail.config", True)
        for source, target, read_only in plan["mounts"]:
            mount(source, root + target, read_only)
    except (OSError, subprocess.CalledProcessError) as err:
        sys.stderr.write("firejail_root: cannot build the sandbox's root: %s\n" % err)
        sys.stderr.flush()
        os._exit(125)
    os.chdir("/")
    os.execve(plan["firejail"][0], plan["firejail"], {})


if __name__ == "__main__":
    main()
