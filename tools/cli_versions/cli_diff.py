#!/usr/bin/env python3
"""cli_diff: how two versions of the real azmcp behave differently, scenario by scenario.

  tools/cli_diff OLD NEW [--pin] [--json FILE] [--keep DIR] [--shard INDEX/COUNT]
  tools/cli_diff --compare OLD_DIR NEW_DIR [--json FILE]

Fetches both @azure/mcp-linux-x64 tarballs (npm pack), checks each against the sha256 that
tools/image/azmcp-pins.tsv records (--pin records NEW first, with tools/image/pin), unpacks them
into tools/bazel's cache, then runs through each version (both at once): the whole differential
scenario set (fakes/azmcp/scenarios.json, through the fake price API and the GET-only egress
proxy), the live check's dry run (live_check --dry-run --record) and the help texts
(`azmcp --help`, `azmcp pricing get --help`). The report says, per scenario, check and help text, `same` or
`different`, with a diff of what differs: the envelope (stdout), the exit code, stderr and the
argv binding (the upstream requests the CLI made of its arguments). The two versions' own
strings (such as `1.2.3-beta.4`, with or without its `+commit`) read `<version>` on both sides, and
loopback ports `PORT`, so only behaviour is compared. A pending expectation
(tools/cli_versions/expectations.json: what a version is known to change) is checked when NEW
is its version. --compare compares two folders collected before (--keep DIR keeps them: DIR/OLD,
DIR/NEW). --shard INDEX/COUNT compares a share of the whole: the scenarios whose place in the
file is INDEX modulo COUNT, and in the last share the dry run and the help texts too (COUNT
runs cover everything once, as a sharded test runs it). Exit 0 the versions behave alike, 1 they
differ (or a pending expectation is not met), 64 bad input, 69 a version could not be fetched or
run.
"""
import difflib
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
PINS = os.path.join(ROOT, "tools", "image", "azmcp-pins.tsv")
EXPECTATIONS = os.path.join(ROOT, "tools", "cli_versions", "expectations.json")
PACKAGE = "@azure/mcp-linux-x64"
VERSION_RE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$")
EXIT_DIFFER, EXIT_USAGE, EXIT_UNAVAILABLE = 1, 64, 69
DIFF_LINES = 24  # of each diff in the text report (the JSON report has them whole)
HELP = {"azmcp --help": ["--help"], "azmcp pricing get --help": ["pricing", "get", "--help"]}
RUN_TIMEOUT = 3600  # seconds, a whole scenario set or dry run
HELP_TIMEOUT = 60


class Problem(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def say(text):
    sys.stderr.write("cli_diff: %s\n" % text)  # one write: the two versions' lines never mix
    sys.stderr.flush()


def pinned(version):
    with open(PINS, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if not line.startswith("#") and len(fields) >= 2 and fields[0] == version:
                return fields[1]
    return None


def cache_dir(version):
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", "/root"), ".cache")
    return os.path.join(base, "azure-pricing-conformance", "azmcp-" + version)


def run(argv, timeout, stderr=subprocess.PIPE, relay=None, **kwargs):
    """(exit status, stdout, stderr) of a child, killed and reaped at the deadline; with
    relay=PREFIX its stderr lines reach ours as they come, each after PREFIX (two versions'
    runners speak at once), and its stderr reads empty."""
    if relay is not None:
        stderr = subprocess.PIPE
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=stderr,
                          start_new_session=True, **kwargs) as child:
        readers, captured = [], {}
        if relay is not None:
            def pass_on():
                for line in child.stderr:
                    say(relay + line.decode("utf-8", "replace").rstrip("\n"))

            def keep():
                captured["out"] = child.stdout.read()
            readers = [threading.Thread(target=f, daemon=True) for f in (pass_on, keep)]
            for reader in readers:
                reader.start()
        try:
            if readers:
                child.wait(timeout=timeout)
                for reader in readers:
                    reader.join()
                out, err = captured.get("out") or b"", b""
            else:
                out, err = child.communicate(timeout=timeout)
                err = err or b""
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, 9)
            child.communicate()
            raise Problem(EXIT_UNAVAILABLE, "%s did not finish within %d s" % (argv[0], timeout))
    return child.returncode, out, err


def fetch(version):
    """The path of VERSION's azmcp, fetched, checked against its pin and unpacked if absent."""
    binary = os.path.join(cache_dir(version), "package", "dist", "azmcp")
    if os.access(binary, os.X_OK):
        return binary
    want = pinned(version)
    say("fetching %s@%s" % (PACKAGE, version))
    work = tempfile.mkdtemp()
    try:
        status, _, err = run(["npm", "pack", "--silent", "%s@%s" % (PACKAGE, version)], 600, cwd=work)
        if status != 0:
            raise Problem(EXIT_UNAVAILABLE, "npm pack %s@%s failed: %s" % (
                PACKAGE, version, err.decode("utf-8", "replace").strip().splitlines()[-1:]))
        tarball = os.path.join(work, [n for n in os.listdir(work) if n.endswith(".tgz")][0])
        with open(tarball, "rb") as f:
            actual = hashlib.sha256(f.read()).hexdigest()
        if actual != want:
            raise Problem(EXIT_UNAVAILABLE, "refusing %s@%s: sha256 %s is not the pinned %s"
                          % (PACKAGE, version, actual, want))
        staged = cache_dir(version) + ".partial.%d" % os.getpid()
        shutil.rmtree(staged, ignore_errors=True)
        with tarfile.open(tarball) as t:
            t.extractall(staged)
        shutil.rmtree(cache_dir(version), ignore_errors=True)
        os.makedirs(os.path.dirname(staged), exist_ok=True)
        os.rename(staged, cache_dir(version))
        os.chmod(binary, 0o755)
        return binary
    finally:
        shutil.rmtree(work, ignore_errors=True)


def clean_env(home):
    return {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "AZURE_MCP_COLLECT_TELEMETRY": "false", "AZURE_MCP_COLLECT_TELEMETRY_MICROSOFT": "false",
            "DOTNET_CLI_TELEMETRY_OPTOUT": "1"}


def collect_help(binary, out):
    os.makedirs(out, exist_ok=True)
    home = tempfile.mkdtemp()
    try:
        texts = {}
        for name, args in HELP.items():
            status, stdout, stderr = run([binary] + args, HELP_TIMEOUT, env=clean_env(home))
            texts[name] = {"exit_code": status, "stdout": stdout.decode("utf-8", "replace"),
                           "stderr": stderr.decode("utf-8", "replace")}
        with open(os.path.join(out, "help.json"), "w") as f:
            json.dump(texts, f, indent=1, sort_keys=True)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def bazel_bin():
    return os.path.join(ROOT, "bazel-bin")


PROGRAMS = {"run_scenarios": os.path.join(ROOT, "bazel-bin", "tools", "cli_versions", "run_scenarios"),
            "live_check": os.path.join(ROOT, "bazel-bin", "tools", "live_check")}


def build():
    say("building the scenario runner and the live check (tools/bazel build)")
    status, _, err = run([os.path.join(ROOT, "tools", "bazel"), "build",
                          "//tools/cli_versions:run_scenarios", "//tools:live_check"],
                         RUN_TIMEOUT, cwd=ROOT)
    if status != 0:
        sys.stderr.write(err.decode("utf-8", "replace")[-4000:])
        raise Problem(EXIT_UNAVAILABLE, "tools/bazel build failed (exit %d)" % status)


def collect(version, binary, out, shard=None):
    """Runs everything through VERSION's CLI into OUT (differential/, dry-run/, help/); with
    SHARD (index, count), that share of the scenarios, and the rest only in the last share."""
    runner = os.path.abspath(PROGRAMS["run_scenarios"])
    runfiles = runner + ".runfiles"
    if not os.path.isdir(runfiles):  # inside a Bazel test: the test's own runfiles hold its data
        runfiles = os.environ.get("TEST_SRCDIR", runfiles)
    workspace = [d for d in os.listdir(runfiles) if os.path.isdir(os.path.join(runfiles, d, "fakes"))]
    say("%s: the differential scenarios" % version)
    scratch = tempfile.mkdtemp(prefix="cli_diff.rig.")  # the rig's CA file and the CLI's HOME
    env = dict(os.environ, TEST_SRCDIR=runfiles, TEST_WORKSPACE=workspace[0], TEST_TMPDIR=scratch)
    try:
        status, _, err = run([runner, "--azmcp", binary, "--out", os.path.join(out, "differential")]
                             + (["--shard", "%d/%d" % shard] if shard else []),
                             RUN_TIMEOUT, relay=version + ": ",
                             cwd=os.path.join(runfiles, workspace[0]), env=env)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if status != 0:
        raise Problem(EXIT_UNAVAILABLE, "%s: the scenarios did not run (run_scenarios exit %d, "
                                        "its reason above)" % (version, status))
    if shard and shard[0] != shard[1] - 1:
        return
    say("%s: the live check's dry run" % version)
    env = dict(os.environ, AZURE_PRICING_AZMCP=binary)
    status, stdout, err = run([os.path.abspath(PROGRAMS["live_check"]), "--dry-run",
                               "--record", os.path.join(out, "dry-run")], RUN_TIMEOUT, env=env)
    if status not in (0, 1) or not os.path.isdir(os.path.join(out, "dry-run")):
        raise Problem(EXIT_UNAVAILABLE, "%s: the dry run did not run (exit %d): %s" % (
            version, status, err.decode("utf-8", "replace").strip().splitlines()[-1:]))
    say("%s: the help texts" % version)
    collect_help(binary, os.path.join(out, "help"))


def masker(versions):
    alternatives = "|".join(re.escape(v) for v in sorted(versions, key=len, reverse=True))
    version_re = re.compile(r"(%s)(\+[0-9a-f]{7,40})?" % alternatives)
    port_re = re.compile(r"(127\.0\.0\.1|localhost):[0-9]+")
    return lambda text: port_re.sub(r"\1:PORT", version_re.sub("<version>", text))


def read_text(path):
    if os.path.exists(path + ".gz"):
        with gzip.open(path + ".gz", "rb") as f:
            return f.read().decode("utf-8", "replace")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def unified(old, new, old_label, new_label):
    return list(difflib.unified_diff((old or "").splitlines(), (new or "").splitlines(),
                                     old_label, new_label, lineterm="", n=1))


def compare_parts(parts, labels, mask):
    """[{"part", "diff"}] for each part (name -> (old text, new text)) that differs."""
    found = []
    for part, (old, new) in parts.items():
        old, new = mask(old) if old is not None else None, mask(new) if new is not None else None
        if old != new:
            found.append({"part": part, "diff": unified(old, new, *labels)})
    return found


def scenario_parts(directory, slug):
    meta_text = read_text(os.path.join(directory, slug + ".json"))
    meta = json.loads(meta_text) if meta_text else {}
    return {"exit code": "%s\n" % meta.get("exit_code"),
            "envelope (stdout)": read_text(os.path.join(directory, slug + ".stdout")),
            "stderr": read_text(os.path.join(directory, slug + ".stderr")),
            "argv binding (upstream requests)": "\n".join(meta.get("requests", [])) + "\n"}


def compare_differential(old_dir, new_dir, labels, mask):
    slugs = sorted({n[:-5] for d in (old_dir, new_dir) if os.path.isdir(d)
                    for n in os.listdir(d) if n.endswith(".json") and n != "manifest.json"})
    if not slugs:
        raise Problem(EXIT_USAGE, "no differential recordings in %s or %s" % (old_dir, new_dir))
    items = []
    for slug in slugs:
        old, new = scenario_parts(old_dir, slug), scenario_parts(new_dir, slug)
        meta = json.loads(read_text(os.path.join(new_dir, slug + ".json")) or
                          read_text(os.path.join(old_dir, slug + ".json")))
        items.append({"name": meta.get("name", slug),
                      "differences": compare_parts({k: (old[k], new[k]) for k in old}, labels, mask)})
    return items


def dry_run_parts(directory, check):
    recording = json.loads(read_text(os.path.join(directory, "recording.json")) or "{}")
    query = next((q for q in recording.get("queries", []) if q.get("id") == check), {})
    upstream = [u for u in query.get("upstream", []) if isinstance(u, dict)]
    bodies = "".join(read_text(os.path.join(directory, u["body"])) or ""
                     for u in upstream if isinstance(u.get("body"), str))
    stdout = query.get("cli_stdout")
    return {"exit code": "%s\n" % query.get("exit_code"),
            "envelope (stdout)": read_text(os.path.join(directory, stdout)) if stdout else None,
            "stderr": query.get("cli_stderr", ""),
            "argv binding (upstream requests)": "argv: %s\n" % json.dumps(query.get("argv")) + "".join(
                "%s %s\n" % (u.get("status"), u.get("target")) for u in upstream) + bodies}


def compare_dry_run(old_dir, new_dir, labels, mask):
    checks = sorted({q.get("id") for d in (old_dir, new_dir)
                     for q in json.loads(read_text(os.path.join(d, "recording.json")) or
                                         '{"queries": []}').get("queries", [])})
    items = []
    for check in checks:
        old, new = dry_run_parts(old_dir, check), dry_run_parts(new_dir, check)
        items.append({"name": check,
                      "differences": compare_parts({k: (old[k], new[k]) for k in old}, labels, mask)})
    return items


def compare_help(old_dir, new_dir, labels, mask):
    old = json.loads(read_text(os.path.join(old_dir, "help.json")) or "{}")
    new = json.loads(read_text(os.path.join(new_dir, "help.json")) or "{}")
    items = []
    for name in sorted(set(old) | set(new)):
        o, n = old.get(name, {}), new.get(name, {})
        parts = {"exit code": ("%s\n" % o.get("exit_code"), "%s\n" % n.get("exit_code")),
                 "stdout": (o.get("stdout"), n.get("stdout")),
                 "stderr": (o.get("stderr"), n.get("stderr"))}
        items.append({"name": name, "differences": compare_parts(parts, labels, mask)})
    return items


def pending_expectations(new_version, binary):
    """The checks tools/cli_versions/expectations.json holds for NEW, each met or not."""
    with open(EXPECTATIONS, encoding="utf-8") as f:
        expectations = json.load(f)["expectations"]
    results = []
    for e in expectations:
        if e["version"] != new_version or binary is None:
            continue
        home = tempfile.mkdtemp()
        try:
            env = dict(clean_env(home), HTTPS_PROXY="http://127.0.0.1:9")
            status, stdout, stderr = run([binary] + e["argv"], HELP_TIMEOUT, env=env)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        text = stdout.decode("utf-8", "replace") + stderr.decode("utf-8", "replace")
        met = (status != 0) == e["expect"]["fails"] and all(
            t in text for t in e["expect"].get("output_contains", []))
        results.append({"version": e["version"], "what": e["what"], "met": met,
                        "exit_code": status})
    return results


def summarise(section, items):
    different = [i for i in items if i["differences"]]
    return "%s (%d): %d same, %d different" % (section, len(items), len(items) - len(different),
                                              len(different))


def report_lines(report):
    lines = ["cli_diff: %s %s -> %s (both versions read <version>, loopback ports PORT)"
             % (PACKAGE, report["old"], report["new"])]
    for key, section in (("differential", "differential scenarios"),
                         ("dry_run", "live check dry run"), ("help", "help texts")):
        items = report[key]
        lines.append(summarise(section, items))
        for item in items:
            lines.append("  %-9s  %s" % ("different" if item["differences"] else "same", item["name"]))
            for d in item["differences"]:
                lines.append("      %s:" % d["part"])
                shown = d["diff"][:DIFF_LINES]
                lines += ["        " + line for line in shown]
                if len(d["diff"]) > DIFF_LINES:
                    lines.append("        ... %d more lines (--json has the whole diff)"
                                 % (len(d["diff"]) - DIFF_LINES))
    for e in report["expectations"]:
        lines.append("expected of %s: %s: %s" % (e["version"], e["what"], "met" if e["met"] else "NOT MET"))
    counted = [i for k in ("differential", "dry_run", "help") for i in report[k]]
    differ = [i for i in counted if i["differences"]]
    unmet = [e for e in report["expectations"] if not e["met"]]
    if differ or unmet:
        lines.append("verdict: the versions differ: %d of %d comparisons%s" % (
            len(differ), len(counted), ", %d pending expectations not met" % len(unmet) if unmet else ""))
    else:
        lines.append("verdict: the versions behave alike in all %d comparisons" % len(counted))
    return lines, bool(differ or unmet)


def compare_dirs(old, new, old_dir, new_dir, new_binary=None):
    labels = (old, new)
    mask = masker([old, new])
    return {"old": old, "new": new,
            "differential": compare_differential(os.path.join(old_dir, "differential"),
                                                 os.path.join(new_dir, "differential"), labels, mask),
            "dry_run": compare_dry_run(os.path.join(old_dir, "dry-run"),
                                       os.path.join(new_dir, "dry-run"), labels, mask),
            "help": compare_help(os.path.join(old_dir, "help"), os.path.join(new_dir, "help"),
                                 labels, mask),
            "expectations": pending_expectations(new, new_binary)}


def parse(argv):
    args = {"json": None, "pin": False, "keep": None, "compare": None, "versions": [],
            "old-azmcp": None, "new-azmcp": None, "run-scenarios": None, "live-check": None,
            "shard": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--json", "--keep", "--old-azmcp", "--new-azmcp", "--run-scenarios",
                 "--live-check", "--shard") and i + 1 < len(argv):
            args[a[2:]] = argv[i + 1]
            i += 2
        elif a == "--compare" and i + 2 < len(argv) + 0 and i + 2 <= len(argv) - 1:
            args["compare"] = (argv[i + 1], argv[i + 2])
            i += 3
        elif a == "--pin":
            args["pin"] = True
            i += 1
        elif a in ("-h", "--help"):
            print(__doc__.split("\n\n")[1])
            sys.exit(0)
        elif a.startswith("-"):
            raise Problem(EXIT_USAGE, "unknown or incomplete argument: %s" % a)
        else:
            args["versions"].append(a)
            i += 1
    return args


def versions_of(args):
    if args["compare"]:
        if args["versions"] or args["pin"] or args["keep"] or args["shard"]:
            raise Problem(EXIT_USAGE, "--compare takes two folders and no versions, --pin, --keep "
                                      "or --shard")
        for d in args["compare"]:
            if not os.path.isdir(d):
                raise Problem(EXIT_USAGE, "not a folder: %s" % d)
        names = []
        for d in args["compare"]:
            help_file = os.path.join(d, "version")
            names.append(open(help_file).read().strip() if os.path.exists(help_file)
                         else os.path.basename(os.path.normpath(d)))
        return names
    if len(args["versions"]) != 2:
        raise Problem(EXIT_USAGE, "usage: tools/cli_diff OLD NEW [--pin] [--json FILE] [--keep DIR]")
    old, new = args["versions"]
    for v in (old, new):
        if not VERSION_RE.match(v):
            raise Problem(EXIT_USAGE, "not a version: %s" % v)
    if old == new:
        raise Problem(EXIT_USAGE, "OLD and NEW are the same version: %s" % old)
    if args["shard"] is not None:
        found = re.match(r"^([0-9]{1,4})/([0-9]{1,4})$", args["shard"])
        if not found or int(found.group(1)) >= int(found.group(2)):
            raise Problem(EXIT_USAGE, "--shard takes INDEX/COUNT, INDEX < COUNT: %s" % args["shard"])
        args["shard"] = (int(found.group(1)), int(found.group(2)))
    if args["pin"] and not pinned(new):
        status, _, err = run([os.path.join(ROOT, "tools", "image", "pin"), new], 600)
        sys.stderr.write(err.decode("utf-8", "replace"))
        if status != 0:
            raise Problem(EXIT_USAGE, "cannot pin %s (tools/image/pin failed)" % new)
    for v in (old, new):
        if not pinned(v):
            raise Problem(EXIT_USAGE, "%s is not pinned in tools/image/azmcp-pins.tsv: "
                                      "tools/image/pin %s (or --pin for NEW)" % (v, v))
    return [old, new]


def collect_both(old, new, args):
    """Given binaries and programs (--old-azmcp ..., as a Bazel test passes them) are used as
    they are; else the tarballs are fetched and the programs built."""
    keep = args["keep"]
    binaries = [args["old-azmcp"] or fetch(old), args["new-azmcp"] or fetch(new)]
    if args["run-scenarios"] and args["live-check"]:
        PROGRAMS.update(run_scenarios=args["run-scenarios"], live_check=args["live-check"])
    else:
        build()
    top = keep or tempfile.mkdtemp(prefix="cli_diff.")
    dirs = [os.path.join(top, old), os.path.join(top, new)]
    for version, d in zip((old, new), dirs):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        with open(os.path.join(d, "version"), "w") as f:
            f.write(version + "\n")
    # The two versions run at once, each through its own fake price API, proxy and dry-run
    # stack: every CLI start is its own process, so the pair takes about one version's time
    # where two cores are free.
    problems = []

    def one(version, binary, d):
        try:
            collect(version, binary, d, args["shard"])
        except Problem as p:
            problems.append(p)
    workers = [threading.Thread(target=one, args=(v, b, d))
               for v, b, d in zip((old, new), binaries, dirs)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if problems:
        if not keep:
            shutil.rmtree(top, ignore_errors=True)
        raise problems[0]
    return dirs, binaries[1], (None if keep else top)


def main(argv):
    try:
        args = parse(argv)
        old, new = versions_of(args)
        if args["compare"]:
            report = compare_dirs(old, new, *args["compare"])
        else:
            dirs, new_binary, scratch = collect_both(old, new, args)
            try:
                report = compare_dirs(old, new, dirs[0], dirs[1], new_binary)
            finally:
                if scratch:
                    shutil.rmtree(scratch, ignore_errors=True)
        lines, differ = report_lines(report)
        print("\n".join(lines))
        if args["json"]:
            report["verdict"] = "differ" if differ else "alike"
            with open(args["json"] + ".partial", "w") as f:
                json.dump(report, f, indent=1)
            os.rename(args["json"] + ".partial", args["json"])
        return EXIT_DIFFER if differ else 0
    except Problem as p:
        say(str(p))
        return p.status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
