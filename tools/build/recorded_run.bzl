"""recorded_run: run a program once per build, and let several tests read what it did.

Some facts cost tens of seconds to establish and several tests need the same one: the gate's
62 backend probes, or its whole run. A recorded_run runs the program as a build action (so once
per change of its inputs, whatever number of tests read it) and records:
  NAME.stdout, NAME.stderr  what it printed, each stream whole;
  NAME.status               its exit status, as decimal text and a newline;
  NAME.argv                 the arguments as a user types them, one JSON array;
  NAME.json                 the file it wrote for `json_flag PATH`.
The action succeeds whatever the program's status, so a failing run reaches its readers, which
say what failed, instead of a build error. A program still running after `timeout_seconds` is
killed and the status reads 124 (timeout(1)'s).

The program runs where `bazel run` and a test start it: a directory laid out as its runfiles'
workspace directory, plus the workspace's `data` files at their paths (so workspace-relative
arguments resolve as in a test that has them as data). RUNFILES_DIR names its runfiles, HOME and TMPDIR
set to a fresh directory removed afterwards, and PATH=/usr/bin:/bin. An `env` value that is one
$(execpath ...) becomes an absolute path. Tag a record `manual` (so `bazel build //...` does not run it
unless a test needs it) and with what it needs from the machine; `no-sandbox` and
`no-remote-cache` are passed to the action.
"""

_PASSED_TAGS = ["no-sandbox", "no-remote-cache", "no-remote", "no-cache", "local"]

def _recorded_run_impl(ctx):
    tool = ctx.attr.program[DefaultInfo].files_to_run
    env = {"PATH": "/usr/bin:/bin"}
    env.update({
        key: ctx.expand_location(value, ctx.attr.data)
        for key, value in ctx.attr.env.items()
    })
    ctx.actions.write(ctx.outputs.argv, json.encode(ctx.attr.args) + "\n")

    # The workspace's data files, placed where a test's runfiles would hold them.
    links = ctx.actions.declare_file(ctx.label.name + ".links")
    ctx.actions.write(links, "".join([
        "%s\t%s\n" % (f.short_path, f.path)
        for f in ctx.files.data
        if not f.short_path.startswith("../")
    ]))
    wrapper = ctx.actions.declare_file(ctx.label.name + ".run.sh")
    ctx.actions.expand_template(
        template = ctx.file._wrapper,
        output = wrapper,
        substitutions = {
            "@ABSOLUTE_ENV@": " ".join([k for k, v in ctx.attr.env.items() if v.startswith("$(")]),
            "@TIMEOUT@": str(ctx.attr.timeout_seconds),
            "@WORKSPACE@": ctx.workspace_name,
        },
        is_executable = True,
    )
    written = [ctx.outputs.stdout, ctx.outputs.stderr, ctx.outputs.status, ctx.outputs.json]
    arguments = [
        ctx.outputs.stdout.path,
        ctx.outputs.stderr.path,
        ctx.outputs.status.path,
        ctx.attr.json_flag,
        ctx.outputs.json.path,
        links.path,
        tool.executable.path,
    ] + ctx.attr.args
    ctx.actions.run(
        executable = wrapper,
        arguments = arguments,
        inputs = ctx.files.data + [links],
        tools = [tool],
        outputs = written,
        env = env,
        mnemonic = "RecordedRun",
        progress_message = "Recording %s (%s)" % (ctx.label, tool.executable.short_path),
        execution_requirements = {t: "" for t in ctx.attr.tags if t in _PASSED_TAGS},
    )
    recorded = written + [ctx.outputs.argv]
    return [DefaultInfo(files = depset(recorded), runfiles = ctx.runfiles(files = recorded))]

recorded_run = rule(
    implementation = _recorded_run_impl,
    doc = "Runs `program args... json_flag NAME.json` once per build; records what it did.",
    attrs = {
        "args": attr.string_list(doc = "The arguments as a user types them."),
        "data": attr.label_list(allow_files = True, doc = "Files the run reads."),
        "env": attr.string_dict(doc = "More environment; $(execpath) expands to an absolute path."),
        "json_flag": attr.string(default = "--json", doc = "The flag naming the JSON output."),
        "program": attr.label(executable = True, cfg = "target", mandatory = True),
        "timeout_seconds": attr.int(default = 1200),
        "_wrapper": attr.label(
            default = "//tools/build:recorded_run.sh.in",
            allow_single_file = True,
        ),
    },
    outputs = {
        "argv": "%{name}.argv",
        "json": "%{name}.json",
        "status": "%{name}.status",
        "stderr": "%{name}.stderr",
        "stdout": "%{name}.stdout",
    },
)
