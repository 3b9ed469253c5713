#include "conformance/backend/bwrap_adapter.h"

#include <signal.h>

#include <cstdlib>
#include <iostream>
#include <optional>

#include "conformance/backend/protocol/server.h"
#include "ref/base/files.h"
#include "ref/base/paths.h"
#include "ref/pricing/package.h"

namespace azure_pricing::conformance::backend {
namespace {

// The image and the bubblewrap program, checked before the protocol starts: a backend
// implementer's typo is named at once, not as a failed first acquire.
std::string PathProblem(const base::Flags& flags, const std::optional<std::string>& image) {
  return base::FirstPathProblem({
      {"--image", image, base::CheckExistingDirectory},
      {"--bwrap", flags.Value("--bwrap"), base::CheckExecutableFile},
  });
}

// --image, or else the image the gate assembled for its run (PROTOCOL.md, "The image").
std::optional<std::string> ImageDir(const base::Flags& flags) {
  if (std::optional<std::string> flag = flags.Value("--image")) return flag;
  const char* gate = std::getenv("AZURE_PRICING_IMAGE_DIR");
  return gate != nullptr && *gate != '\0' ? std::optional<std::string>(gate) : std::nullopt;
}

}  // namespace

int RunBwrapAdapter(int argc, char** argv, const std::string& program,
                    const std::vector<base::FlagSpec>& extra_flags, const std::string& extra_usage,
                    const BackendHook& hook) {
  const std::string usage = "usage: " + program + " [--image DIR] [--bwrap PATH] [--egress-log]" +
                            extra_usage +
                            "\nServes the bubblewrap backend over the backend protocol on "
                            "stdin/stdout (conformance/backend/protocol/PROTOCOL.md).\nDIR is "
                            "an image from `tools/bazel run //tools:sandbox_image -- --out DIR`; "
                            "without --image, $AZURE_PRICING_IMAGE_DIR (the gate sets it).\n";
  std::vector<base::FlagSpec> specs = {{"--help", base::FlagKind::kSwitch},
                                       {"--image", base::FlagKind::kValue},
                                       {"--bwrap", base::FlagKind::kValue},
                                       {"--egress-log", base::FlagKind::kSwitch}};
  specs.insert(specs.end(), extra_flags.begin(), extra_flags.end());
  std::string problem;
  const StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(argc, argv, specs, &problem);
  const std::optional<std::string> image = flags.ok() ? ImageDir(*flags) : std::nullopt;
  if (!flags.ok() || (!flags->Has("--help") && !image)) {
    std::cerr << program << ": "
              << (flags.ok() ? "--image DIR is required (or AZURE_PRICING_IMAGE_DIR)" : problem)
              << "\n"
              << usage;
    return 64;
  }
  if (flags->Has("--help")) {
    std::cout << usage;
    return 0;
  }
  if (const std::string bad = PathProblem(*flags, image); !bad.empty()) {
    std::cerr << program << ": " << bad << "\n" << usage;
    return 64;
  }
  signal(SIGPIPE, SIG_IGN);
  sandbox::bwrap::BwrapOptions options;
  // Under `bazel run` a relative path means the caller's directory, as the checks above read it.
  options.image_dir = base::CallerPath(*image);
  options.bwrap_path = base::CallerPath(flags->Value("--bwrap").value_or(""));
  // stdout carries the protocol; the proxy's decisions go to stderr only when asked for.
  if (!flags->Has("--egress-log")) options.egress_log = [](const std::string&) {};
  StatusOr<std::unique_ptr<sandbox::bwrap::BwrapBackend>> backend =
      sandbox::bwrap::BwrapBackend::Create(options);
  if (!backend.ok()) {
    std::cerr << program << ": " << backend.status().message() << "\n";
    return 1;
  }
  conformance::backend::protocol::ServeOptions serve;
  if (Status hooked = hook(**backend, *flags, serve); !hooked.ok()) {
    std::cerr << program << ": " << hooked.message() << "\n";
    return 1;
  }
  return conformance::backend::protocol::ServeBackend(**backend, {sandbox::bwrap::kBackendName, kPackageVersion},
                                        0, 1, serve);
}

}  // namespace azure_pricing::conformance::backend
