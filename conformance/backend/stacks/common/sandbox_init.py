# The first program in every sandbox of the stacks' adapters, run as `python3 -I -S -c THIS SPEC`
# from the host's read-only /usr (no file of this repository is mounted inside). SPEC is JSON:
#   {"argv": [...], "env": ["NAME=value", ...], "relay": {"port": 3128, "socket": PATH} | null,
#    "uid": N (optional), "cwd": DIR (optional)}
# With a relay it listens on the sandbox's own 127.0.0.1:PORT (a network namespace with loopback
# only) and carries each connection to the Unix socket PATH, bind-mounted from the host, where the
# adapter relays it on to the host-side proxy: a loopback-only sandbox reaches the proxy this way
# and no other. The listener is bound before the program starts, so its first connection finds it.
# Then it runs the program, in cwd and as uid and gid N when SPEC names them (a sandbox tool that
# starts it as root without capabilities but setuid and setgid, which the change of user drops),
# with exactly the request's environment, and exits with its status, a
# signal N as 128+N (as a shell reports it). Its own end ends the sandbox's PID namespace.
import json
import os
import signal
import socket
import sys
import threading


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    for s in (dst, src):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def relay(listener, path):
    while True:
        conn, _ = listener.accept()
        try:
            up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            up.connect(path)
        except OSError:
            conn.close()
            continue
        threading.Thread(target=pump, args=(conn, up), daemon=True).start()
        threading.Thread(target=pump, args=(up, conn), daemon=True).start()


def main():
    spec = json.loads(sys.argv[1])
    env = dict(e.split("=", 1) if "=" in e else (e, "") for e in spec["env"])
    listener = None
    if spec.get("relay"):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", spec["relay"]["port"]))
        listener.listen(64)
    pid = os.fork()
    if pid == 0:
        if listener is not None:
            listener.close()
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)
        argv = spec["argv"]
        try:
            if spec.get("cwd"):
                os.chdir(spec["cwd"])
            if spec.get("uid") is not None:
                os.setgroups([])
                os.setgid(spec["uid"])
                os.setuid(spec["uid"])
        except OSError as err:
            os.write(2, ("sandbox_init: cannot enter the program's directory or user: %s\n"
                         % err.strerror).encode())
            os._exit(125)
        try:
            if "/" in argv[0]:
                os.execve(argv[0], argv, env)
            os.execvpe(argv[0], argv, env)
        except OSError as err:
            os.write(2, ("sandbox_init: cannot run %s: %s\n" % (argv[0], err.strerror)).encode())
            os._exit(126 if err.errno == 13 else 127)
    if listener is not None:
        threading.Thread(target=relay, args=(listener, spec["relay"]["socket"]),
                         daemon=True).start()
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        os._exit(128 + os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status))


# Under `python3 -c THIS` too, __name__ is "__main__"; stack.py imports pump() from here.
if __name__ == "__main__":
    main()
