"""firejail as the stacks' sandbox tool: one firejail run per exec, chrooted into a root the
adapter builds for the sandbox (docs/certify-sandbox.md, "Using firejail").

Without --chroot, firejail's sandbox is the host's own root file system with parts hidden
(--blacklist, --bind, --private-*): every file of the host that no option names stays visible,
which PROTOCOL.md's *What a sandbox is* forbids. So each exec is
  unshare --mount --propagation private -- python3 -I -S firejail_root.py PLAN
and firejail_root.py, root in that private mount namespace (nothing it mounts is seen outside
it, nothing outlives the exec), builds the sandbox's root and then runs
  firejail --noprofile --chroot=ROOT --net=none --private-dev --ipc-namespace ...
- ROOT is the sandbox's own directory: /usr read-only from the host (with the /bin, /lib, /lib64
  and /sbin links), the image's /usr/local and /etc read-only over it, the sandbox's /tmp and
  HOME, and with allowlist egress the relay's socket and the proxy's CA under
  /run/azure-pricing. Each mount that fails stops the exec: firejail's own --bind continues past
  a missing source and leaves the host's directory in place (the failed_bind weakening);
- firejail refuses --chroot unless its configuration says `chroot yes`; ../firejail/
  firejail.config says so, bound over /etc/firejail/firejail.config inside the private mount
  namespace only, so the host's firejail is left as it was;
- --net=none (loopback only; sandbox_init relays 127.0.0.1:3128 to the socket), --private-dev
  (null, zero, random and a few more, not the host's disks), --ipc-namespace, and firejail's
  own PID, UTS and mount namespaces;
- --caps.keep=setuid,setgid --nonewprivs: sandbox_init, root inside, drops to uid and gid 65534
  before it runs the program, which clears the two capabilities; the program has none.
  (firejail run by uid 65534 itself would refuse it: Debian's firejail serves only the users
  of login.defs' UID_MIN..UID_MAX.)
- the environment is cleared for firejail, and sandbox_init gives the program exactly the
  request's.
"""
import json
import os
import shutil

import stack

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT_PROGRAM = os.path.join(HERE, "firejail_root.py")
CONFIG = os.path.join(HERE, "..", "firejail", "firejail.config")
SANDBOX_UID = 65534
# The directories firejail --chroot expects in the root, besides the mount points.
SKELETON = ("dev", "proc", "sys", "run/azure-pricing", "var/tmp", "var/log", "root", "home")
LINKS = ("bin", "lib", "lib64", "sbin")


def skeleton(root):
    """The sandbox's root directory: root's own, as firejail --chroot requires."""
    for d in SKELETON + ("usr", "etc", "tmp"):
        os.makedirs(os.path.join(root, d), mode=0o755, exist_ok=True)
    for link in LINKS:
        path = os.path.join(root, link)
        if os.path.islink("/" + link) and not os.path.lexists(path):
            os.symlink("usr/" + link, path)


# What both ways of running firejail here ask of it (the module's docstring says why each).
ISOLATION = ["--net=none", "--private-dev", "--ipc-namespace", "--hostname=sandbox",
             "--caps.keep=setuid,setgid", "--nonewprivs", "--deterministic-exit-code",
             "--deterministic-shutdown"]


class Firejail:
    name = "firejail"
    # stack.make_home gives HOME's directories under /tmp to the user sandbox_init changes to.
    home_owner = SANDBOX_UID

    def __init__(self, firejail="/usr/bin/firejail", weakening=None):
        self.firejail = firejail
        self.weakening = weakening

    def program(self, backend, sandbox, argv, env, cwd):
        """Prepares the sandbox's /tmp and HOME; the first program's argv, after firejail's `--`."""
        # /tmp in a firejail root must be root's (firejail checks), and sticky for the program.
        os.chmod(sandbox.tmp, 0o1777)
        os.chown(sandbox.home, SANDBOX_UID, SANDBOX_UID)
        spec = backend.init_spec(sandbox, argv, env)
        spec.update(uid=SANDBOX_UID, cwd=cwd)
        return ["--", "/usr/bin/python3", "-I", "-S", "-c", stack.init_code(), json.dumps(spec)]

    def mounts(self, backend, sandbox, home, root):
        """(source, target inside the root, read-only), in order: parents before children."""
        image = backend.image
        plan = [("/usr", "/usr", True),
                (os.path.join(image, "usr", "local"), "/usr/local", True),
                (os.path.join(image, "etc"), "/etc", True),
                (sandbox.tmp, "/tmp", False)]
        if home is not None and not home.startswith("/tmp/") and home != "/tmp":
            os.makedirs(root + home, mode=0o755, exist_ok=True)
            plan.append((sandbox.home, home, False))
        if sandbox.relay is not None:
            plan += [(backend.proxy.ca_file, stack.CA_INSIDE, True),
                     (sandbox.relay.path, stack.SOCKET_INSIDE, False)]
        return plan

    def command(self, backend, sandbox, argv, env, home):
        if self.weakening in ("failed_bind", "no_chroot"):
            return self.bind_command(backend, sandbox, argv, env, home)
        root = os.path.join(sandbox.root, "root")
        skeleton(root)
        firejail = ([self.firejail, "--noprofile", "--quiet", "--chroot=" + root] + ISOLATION +
                    self.program(backend, sandbox, argv, env, home or "/tmp"))
        plan = {"root": root, "config": os.path.abspath(CONFIG),
                "mounts": self.mounts(backend, sandbox, home, root), "firejail": firejail}
        return [shutil.which("unshare") or "/usr/bin/unshare", "--mount", "--propagation",
                "private", "--", "/usr/bin/python3", "-I", "-S", ROOT_PROGRAM, json.dumps(plan)]

    def bind_command(self, backend, sandbox, argv, env, home):
        """The weakenings: firejail over the host's root, the image bound with --bind and the
        rest of the host hidden as well as --blacklist can (every other top-level directory).
        no_chroot: the binds in a working order; the host's root is still the sandbox's.
        failed_bind: /tmp bound before the image's /etc, which lies under the host's /tmp, so
        that bind finds no source; firejail says "invalid bind command, directory missing" and
        runs the program with the host's /etc. (No egress here: --bind cannot create the
        socket's mount point under the host's /run.)"""
        image = backend.image
        binds = ["--bind=%s,/usr/local" % os.path.join(image, "usr", "local"),
                 "--bind=%s,/etc" % os.path.join(image, "etc"),
                 "--bind=%s,/tmp" % sandbox.tmp]
        if self.weakening == "failed_bind":
            binds[1], binds[2] = binds[2], binds[1]
        cmd = [self.firejail, "--noprofile", "--quiet"] + ISOLATION + binds
        for hidden in sorted(os.listdir("/")):
            if hidden not in ("usr", "etc", "tmp", "proc", "dev", "sys", "run") + LINKS:
                cmd.append("--blacklist=/" + hidden)
        cwd = home if home and home.startswith("/tmp/") else "/tmp"
        return cmd + self.program(backend, sandbox, argv, env, cwd)
