// sandbox_probe: the program a backend conformance suite copies into a sandbox image
// (/usr/local/libexec/azure-pricing/sandbox_probe) and runs inside the sandbox, one subcommand
// per question about the sandbox. Every subcommand prints exactly one JSON object on stdout
// (except flood and close-stdout, whose point is their output streams, and signal, which dies of
// its signal) and exits 0 unless its line below says otherwise; bad usage prints a usage line on
// stderr and exits 64. What each one reports is in the top comment of the file that defines it.
#include <cstdio>
#include <string>
#include <string_view>

#include "conformance/backend/probe/probe.h"

namespace {

using azure_pricing::conformance::backend::probe::Args;
using azure_pricing::conformance::backend::probe::Command;
using azure_pricing::conformance::backend::probe::kUsageExit;
namespace probe = azure_pricing::conformance::backend::probe;

constexpr int kAnyNumber = -1;

struct Subcommand {
  std::string_view name;
  std::string_view usage;  // the arguments, as shown after the name
  int min_args;
  int max_args;  // kAnyNumber: no upper bound
  Command run;
};

// The dispatch table: the probe's whole command-line surface in one place.
constexpr Subcommand kSubcommands[] = {
    {"argv", "ARGS...", 0, kAnyNumber, probe::ArgvCommand},
    {"env", "", 0, 0, probe::EnvCommand},
    {"cwd", "", 0, 0, probe::CwdCommand},
    {"exit", "N  (0..255; exits with N)", 1, 1, probe::ExitCommand},
    {"linger", "MARKER SECONDS", 2, 2, probe::LingerCommand},
    {"tree", "MARKER SECONDS", 2, 2, probe::TreeCommand},
    {"daemon", "MARKER SECONDS", 2, 2, probe::DaemonCommand},
    {"close-stdout", "MARKER SECONDS", 2, 2, probe::CloseStdoutCommand},
    {"flood", "BYTES stdout|stderr|both", 2, 2, probe::FloodCommand},
    {"listen", "MARKER PORT SECONDS  (a detached listener on 127.0.0.1:PORT, PORT 1..65535)", 3, 3,
     probe::ListenCommand},
    {"signal", "N  (1..64; dies of signal N, or prints {\"survived\": true})", 1, 1,
     probe::SignalCommand},
    {"write-file", "PATH CONTENT", 2, 2, probe::WriteFileCommand},
    {"read-file", "PATH", 1, 1, probe::ReadFileCommand},
    {"stat", "PATH...", 1, kAnyNumber, probe::StatCommand},
    {"procs", "", 0, 0, probe::ProcsCommand},
    {"netdevs", "", 0, 0, probe::NetdevsCommand},
    {"mounts", "", 0, 0, probe::MountsCommand},
    {"find-names", "TOKEN MAX_ENTRIES  (TOKEN without '/'; MAX_ENTRIES 1..10000000)", 2, 2,
     probe::FindNamesCommand},
    {"ipc-create", "KEY NAME  (KEY 1..2147483647; NAME [A-Za-z0-9._-]{1,200}, queue /NAME)", 2, 2,
     probe::IpcCreateCommand},
    {"ipc-look", "KEY NAME", 2, 2, probe::IpcLookCommand},
    {"connect", "HOST PORT TIMEOUT_MS", 3, 3, probe::ConnectCommand},
    {"https-get",
     "URL [--method METHOD] [--ca-file FILE] [--no-proxy] [--timeout-ms N] [--body TEXT] "
     "[--host-header VALUE] [--sni NAME] [--then METHOD]... [--pipeline]  (--then at most 8 "
     "times; --pipeline only with --then)",
     1, kAnyNumber, probe::HttpsGetCommand},
};

int Usage(const Subcommand* one) {
  if (one != nullptr) {
    std::fprintf(stderr, "usage: sandbox_probe %.*s %.*s\n", static_cast<int>(one->name.size()),
                 one->name.data(), static_cast<int>(one->usage.size()), one->usage.data());
    return kUsageExit;
  }
  std::fprintf(stderr, "usage: sandbox_probe SUBCOMMAND ARGS...  (subcommands:");
  for (const Subcommand& s : kSubcommands) {
    std::fprintf(stderr, " %.*s", static_cast<int>(s.name.size()), s.name.data());
  }
  std::fprintf(stderr, ")\n");
  return kUsageExit;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage(nullptr);
  const std::string_view name = argv[1];
  for (const Subcommand& s : kSubcommands) {
    if (s.name != name) continue;
    const Args args(argv + 2, argv + argc);
    const int count = static_cast<int>(args.size());
    if (count < s.min_args || (s.max_args != kAnyNumber && count > s.max_args)) return Usage(&s);
    const std::optional<int> status = s.run(args);
    return status ? *status : Usage(&s);
  }
  return Usage(nullptr);
}
