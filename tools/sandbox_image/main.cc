// sandbox_image: assembles the directory tree the bubblewrap backend runs sandboxes on.
//
//   tools/bazel run //tools:sandbox_image -- --out /var/lib/azure-pricing/image
//       --azmcp-tarball azure-mcp-linux-x64-3.0.0-beta.46.tgz   (one command line)
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "ref/base/flags.h"
#include "ref/base/paths.h"
#include "ref/base/runfiles.h"
#include "ref/sandbox/bwrap/bounded_process.h"
#include "ref/sandbox/bwrap/image.h"

namespace {

namespace base = azure_pricing::base;
namespace bwrap = azure_pricing::sandbox::bwrap;
using azure_pricing::base::Runfile;

constexpr char kUsage[] =
    "usage: sandbox_image --out DIR (--azmcp-tarball FILE | --azmcp-binary FILE | --fake-azmcp)\n"
    "                     [--no-probe]\n"
    "Assembles a bubblewrap image in DIR (which must not exist): /usr/local/bin/azmcp, the\n"
    "sandbox_init relay, the backend suite's probe (unless --no-probe), a minimal /etc, and\n"
    "IMAGE.json saying where the CLI came from. A real azmcp (an npm tarball of\n"
    "@azure/mcp-linux-x64, any version, or its package/dist/azmcp) is unpacked into the image\n"
    "once, so no call pays the .NET bundle's extraction.\n";

int Usage(const std::string& problem) {
  std::cerr << "sandbox_image: " << problem << "\n" << kUsage;
  return 64;
}

// "sha256 HEX" of a file, for the provenance line; empty when it cannot be computed.
std::string Sha256(const std::string& path) {
  const azure_pricing::StatusOr<azure_pricing::sandbox::ExecResult> r = bwrap::RunBounded(
      {.argv = {"/usr/bin/sha256sum", path}, .env = {"LANG=C"}, .timeout_ms = 120'000});
  if (!r.ok() || r->exit_code != 0 || r->stdout_bytes.size() < 64) return "";
  return "sha256 " + r->stdout_bytes.substr(0, 64);
}

// Unpacks package/dist/azmcp from an npm tarball into `dir`; the path, or nullopt.
std::optional<std::string> Unpack(const std::string& tarball, const std::string& dir) {
  const azure_pricing::StatusOr<azure_pricing::sandbox::ExecResult> r = bwrap::RunBounded(
      {.argv = {"/usr/bin/tar", "-xzf", tarball, "-C", dir, "package/dist/azmcp"},
       .env = {"LANG=C", "PATH=/usr/bin:/bin"},
       .timeout_ms = 300'000});
  const std::string cli = dir + "/package/dist/azmcp";
  if (!r.ok() || r->exit_code != 0 || access(cli.c_str(), F_OK) != 0) return std::nullopt;
  return cli;
}

}  // namespace

int main(int argc, char** argv) {
  std::string problem;
  const azure_pricing::StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(
      argc, argv,
      {{"--help", base::FlagKind::kSwitch}, {"--out", base::FlagKind::kValue},
       {"--azmcp-tarball", base::FlagKind::kValue}, {"--azmcp-binary", base::FlagKind::kValue},
       {"--fake-azmcp", base::FlagKind::kSwitch}, {"--no-probe", base::FlagKind::kSwitch}},
      &problem);
  if (!flags.ok()) return Usage(problem);
  if (flags->Has("--help")) {
    std::cout << kUsage;
    return 0;
  }
  const int sources = (flags->Value("--azmcp-tarball") ? 1 : 0) +
                      (flags->Value("--azmcp-binary") ? 1 : 0) + (flags->Has("--fake-azmcp") ? 1 : 0);
  if (!flags->Value("--out")) return Usage("--out DIR is required");
  if (sources != 1) return Usage("give exactly one of --azmcp-tarball, --azmcp-binary, --fake-azmcp");
  const std::string out = base::CallerPath(*flags->Value("--out"));
  bwrap::ImageSources image{.sandbox_init = Runfile("ref/sandbox/bwrap/sandbox_init"),
                            .probe = flags->Has("--no-probe")
                                         ? ""
                                         : Runfile("conformance/backend/probe/sandbox_probe")};
  std::string scratch;
  if (flags->Has("--fake-azmcp")) {
    image.azmcp = Runfile("fakes/azmcp/azmcp");
    image.dotnet_bundle = false;
    image.provenance = "the fake azmcp (//fakes/azmcp)";
  } else if (const auto binary = flags->Value("--azmcp-binary")) {
    image.azmcp = base::CallerPath(*binary);
    image.provenance = image.azmcp + " (" + Sha256(image.azmcp) + ")";
  } else {
    const std::string tarball = base::CallerPath(*flags->Value("--azmcp-tarball"));
    scratch = out + ".unpack";
    std::filesystem::create_directories(scratch);
    const std::optional<std::string> cli = Unpack(tarball, scratch);
    if (!cli) {
      std::filesystem::remove_all(scratch);
      std::cerr << "sandbox_image: " << tarball << " has no package/dist/azmcp\n";
      return 1;
    }
    image.azmcp = *cli;
    image.provenance = "npm tarball " + tarball + " (" + Sha256(tarball) + ")";
  }
  std::cerr << "sandbox_image: assembling " << out << " (a real CLI takes a few seconds)\n";
  const azure_pricing::Status made = bwrap::AssembleImage(image, out);
  if (!scratch.empty()) std::filesystem::remove_all(scratch);
  if (!made.ok()) {
    std::cerr << "sandbox_image: " << out << ": " << made.message() << "\n";
    return 1;
  }
  std::cout << out << "\n";
  return 0;
}
