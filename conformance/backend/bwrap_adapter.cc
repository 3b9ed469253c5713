#include "conformance/backend/bwrap_adapter.h"

#include <signal.h>

#include <iostream>

#include "conformance/backend/protocol/server.h"
#include "ref/base/files.h"
#include "ref/base/paths.h"
#include "ref/pricing/package.h"

namespace azure_pricing::conformance::backend {
namespace {

// The image and the bubblewrap program, checked before the protocol starts: a backend
// implementer's typo is named at once, not as a failed first acquire.
std::string PathProblem(const base::Flags& flags) {
  return base::FirstPathProblem({
      {"--image", flags.Value("--image"), base::CheckExistingDirectory},
      {"--bwrap", flags.Value("--bwrap"), base::CheckExecutableFile},
  });
}

}  // namespace

int RunBwrapAdapter(int argc, char** argv, const std::string& program,
                    const std::vector<base::FlagSpec>& extra_flags, const std::string& extra_usage,
                    const BackendHook& hook) {
  const std::string usage = "usage: " + program + " --image DIR [--bwrap PATH] [--egress-log]" +
                            extra_usage +
                            "\nServes the bubblewrap backend over the backend protocol on "
                            "stdin/stdout (conformance/backend/protocol/PROTOCOL.md).\nDIR is "
                            "an image from `tools/bazel run //tools:sandbox_image -- --out DIR`.\n";
  std::vector<base::FlagSpec> specs = {{"--help", base::FlagKind::kSwitch},
                                       {"--image", base::FlagKind::kValue},
                                       {"--bwrap", base::FlagKind::kValue},
                                       {"--egress-log", base::FlagKind::kSwitch}};
  specs.insert(specs.end(), extra_flags.begin(), extra_flags.end());
  std::string problem;
  const StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(argc, argv, specs, &problem);
  if (!flags.ok() || (!flags->Has("--help") && !flags->Value("--image"))) {
    std::cerr << program << ": " << (flags.ok() ? "--image DIR is required" : problem) << "\n"
              << usage;
    return 64;
  }
  if (flags->Has("--help")) {
    std::cout << usage;
    return 0;
  }
  if (const std::string bad = PathProblem(*flags); !bad.empty()) {
    std::cerr << program << ": " << bad << "\n" << usage;
    return 64;
  }
  signal(SIGPIPE, SIG_IGN);
  sandbox::bwrap::BwrapOptions options;
  // Under `bazel run` a relative path means the caller's directory, as the checks above read it.
  options.image_dir = base::CallerPath(*flags->Value("--image"));
  options.bwrap_path = base::CallerPath(flags->Value("--bwrap").value_or(""));
  // stdout carries the protocol; the proxy's decisions go to stderr only when asked for.
  if (!flags->Has("--egress-log")) options.egress_log = [](const std::string&) {};
  StatusOr<std::unique_ptr<sandbox::bwrap::BwrapBackend>> backend =
      sandbox::bwrap::BwrapBackend::Create(options);
  if (!backend.ok()) {
    std::cerr << program << ": " << backend.status().message() << "\n";
    return 1;
  }
  backend_protocol::ServeOptions serve;
  if (Status hooked = hook(**backend, *flags, serve); !hooked.ok()) {
    std::cerr << program << ": " << hooked.message() << "\n";
    return 1;
  }
  return backend_protocol::ServeBackend(**backend, {sandbox::bwrap::kBackendName, kPackageVersion},
                                        0, 1, serve);
}

}  // namespace azure_pricing::conformance::backend
