"""bubblewrap as the stacks' sandbox tool: one bwrap run per exec over the sandbox's state.

Every line of the command is there for a rule of PROTOCOL.md's *What a sandbox is*:
- --unshare-all: fresh user, PID, IPC, UTS, cgroup and network namespaces (the network has
  loopback only; sandbox_init relays 127.0.0.1:3128 to the proxy's socket);
- --die-with-parent, --new-session: nothing outlives the adapter, no terminal;
- --uid/--gid 65534 and --cap-drop ALL: the program has no capabilities, even when the adapter
  runs as root;
- /usr read-only from the host (with the /bin, /lib, /lib64, /sbin links), the image's /usr/local
  and /etc bound over it, nothing else of the host: the root is bubblewrap's own tmpfs, remounted
  read-only last;
- the sandbox's /tmp and HOME from its state directory, kept across execs;
- --clearenv: the environment is exactly the request's (sandbox_init sets it for the program).
"""
import json
import os

import stack


class Bwrap:
    name = "bubblewrap"

    def __init__(self, bwrap="/usr/bin/bwrap"):
        self.bwrap = bwrap

    def command(self, backend, sandbox, argv, env, home):
        image = backend.image
        cmd = [self.bwrap, "--unshare-all", "--die-with-parent", "--new-session",
               "--hostname", "sandbox", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL",
               "--ro-bind", "/usr", "/usr"]
        for link in ("bin", "lib", "lib64", "sbin"):
            if os.path.islink("/" + link):
                cmd += ["--symlink", "usr/" + link, "/" + link]
        cmd += ["--ro-bind", os.path.join(image, "usr", "local"), "/usr/local",
                "--ro-bind", os.path.join(image, "etc"), "/etc",
                "--proc", "/proc", "--dev", "/dev",
                "--bind", sandbox.tmp, "/tmp"]
        if home is not None and not home.startswith("/tmp/") and home != "/tmp":
            cmd += ["--bind", sandbox.home, home]
        if sandbox.relay is not None:
            cmd += ["--ro-bind", backend.proxy.ca_file, stack.CA_INSIDE,
                    "--bind", sandbox.relay.path, stack.SOCKET_INSIDE]
        cmd += ["--chdir", home or "/tmp", "--remount-ro", "/", "--clearenv", "--",
                "/usr/bin/python3", "-I", "-S", "-c", stack.init_code(),
                json.dumps(backend.init_spec(sandbox, argv, env))]
        return cmd
