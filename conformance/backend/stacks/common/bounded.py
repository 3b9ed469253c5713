"""Run one sandbox command with a wall-clock timeout and one output budget (PROTOCOL.md,
exec_bounded): stdout and stderr are counted together as they arrive; past either budget the
command's whole process group is killed and reaped and nothing of its output is returned.

The answer comes when the command exits, not when its pipes close: a program may leave a child
holding them (the sandbox tool's PID namespace kills it when the command ends)."""
import os
import selectors
import signal
import subprocess
import time

# After the command exits, its pipes are read on for at most this long (what a killed PID
# namespace's last writers left in them).
DRAIN_SECONDS = 2.0


class Overflow(Exception):
    pass


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def run_bounded(argv, timeout_seconds, max_output_bytes, pass_fds=()):
    """(exit_code, stdout, stderr), or (None, reason) with reason "timeout" or "output_limit"."""
    if timeout_seconds <= 0:
        return None, "timeout"
    deadline = time.monotonic() + timeout_seconds
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, pass_fds=pass_fds)
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    chunks = {out_fd: [], err_fd: []}
    total = 0
    sel = selectors.DefaultSelector()
    for pipe in (proc.stdout, proc.stderr):
        os.set_blocking(pipe.fileno(), False)
        sel.register(pipe.fileno(), selectors.EVENT_READ)
    exited_at = None
    try:
        while sel.get_map():
            now = time.monotonic()
            if exited_at is None and proc.poll() is not None:
                exited_at = now
            if exited_at is not None and now - exited_at > DRAIN_SECONDS:
                break
            if exited_at is None and now >= deadline:
                _kill_group(proc)
                return None, "timeout"
            wait = min(0.1, max(0.0, deadline - now))
            for key, _ in sel.select(wait):
                data = os.read(key.fd, 65536)
                if not data:
                    sel.unregister(key.fd)
                    continue
                total += len(data)
                if total > max_output_bytes:
                    raise Overflow()
                chunks[key.fd].append(data)
        while proc.poll() is None:  # both pipes closed early: wait for the exit, within budget
            if time.monotonic() >= deadline:
                _kill_group(proc)
                return None, "timeout"
            time.sleep(0.02)
    except Overflow:
        _kill_group(proc)
        return None, "output_limit"
    finally:
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
    code = proc.returncode
    _kill_group(proc)  # anything the command left in its group
    if code < 0:  # the sandbox tool itself was killed by a signal: as a shell reports it
        code = 128 - code
    return (code, b"".join(chunks[out_fd]), b"".join(chunks[err_fd])), None
