// sandbox_image: assembles the directory tree the bubblewrap backend runs sandboxes on.
//
//   tools/bazel run //tools:sandbox_image -- --out /var/lib/azure-pricing/image
//       --azmcp-tarball azure-mcp-linux-x64-3.0.0-beta.46.tgz   (one command line)
//
// A tarball is used only when its sha256 is the one tools/image/azmcp-pins.tsv records for the
// version its package/package.json names, or, for a version with no pin, the one given with
// --sha256.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/paths.h"
#include "ref/base/runfiles.h"
#include "ref/json/json.h"
#include "ref/sandbox/bwrap/bounded_process.h"
#include "ref/sandbox/bwrap/image.h"
#include "tools/image/pins.h"

namespace {

namespace base = azure_pricing::base;
namespace bwrap = azure_pricing::sandbox::bwrap;
namespace image = azure_pricing::tools::image;
namespace json = azure_pricing::json;
using azure_pricing::base::Runfile;

constexpr char kUsage[] =
    "usage: sandbox_image --out DIR (--azmcp-tarball FILE | --azmcp-binary FILE | --fake-azmcp)\n"
    "                     [--sha256 HEX] [--no-probe]\n"
    "Assembles a bubblewrap image in DIR (which must not exist): /usr/local/bin/azmcp, the\n"
    "sandbox_init relay, the backend suite's probe (unless --no-probe), a minimal /etc, and\n"
    "IMAGE.json saying where the CLI came from. A real azmcp (an npm tarball of\n"
    "@azure/mcp-linux-x64, any version, or its package/dist/azmcp) is unpacked into the image\n"
    "once, so no call pays the .NET bundle's extraction.\n"
    "A tarball's sha256 must be the one tools/image/azmcp-pins.tsv records for the version in\n"
    "its package/package.json; for a version with no pin, give --sha256 HEX (or record one with\n"
    "tools/image/pin VERSION).\n";

int Usage(const std::string& problem) {
  std::cerr << "sandbox_image: " << problem << "\n" << kUsage;
  return 64;
}

// The sha256 of a file as 64 hex digits; empty when it cannot be computed.
std::string Sha256(const std::string& path) {
  const azure_pricing::StatusOr<azure_pricing::sandbox::ExecResult> r = bwrap::RunBounded(
      {.argv = {"/usr/bin/sha256sum", path}, .env = {"LANG=C"}, .timeout_ms = 120'000});
  if (!r.ok() || r->exit_code != 0 || r->stdout_bytes.size() < 64) return "";
  return r->stdout_bytes.substr(0, 64);
}

// Unpacks `member` of an npm tarball into `dir`; its path, or nullopt.
std::optional<std::string> Unpack(const std::string& tarball, const std::string& dir,
                                  const std::string& member) {
  const azure_pricing::StatusOr<azure_pricing::sandbox::ExecResult> r = bwrap::RunBounded(
      {.argv = {"/usr/bin/tar", "-xzf", tarball, "-C", dir, member},
       .env = {"LANG=C", "PATH=/usr/bin:/bin"},
       .timeout_ms = 300'000});
  const std::string path = dir + "/" + member;
  if (!r.ok() || r->exit_code != 0 || access(path.c_str(), F_OK) != 0) return std::nullopt;
  return path;
}

// The "version" of the tarball's package/package.json; empty when there is none.
std::string TarballVersion(const std::string& tarball, const std::string& dir) {
  const std::optional<std::string> path = Unpack(tarball, dir, "package/package.json");
  if (!path) return "";
  const azure_pricing::StatusOr<std::string> text = base::ReadFile(*path, 1 << 20);
  if (!text.ok()) return "";
  const json::ParseResult parsed = json::ParseStrict(*text);
  const json::Value* version =
      parsed.error == json::ParseError::kNone ? parsed.value.Find("version") : nullptr;
  return version != nullptr && version->is_string() ? version->as_string() : "";
}

// The tarball's checked package/dist/azmcp, unpacked into `scratch`; nullopt after saying why.
std::optional<std::string> CheckedCli(const std::string& tarball, const std::string& scratch,
                                      const std::optional<std::string>& given_sha256) {
  const std::string version = TarballVersion(tarball, scratch);
  if (version.empty()) {
    std::cerr << "sandbox_image: " << tarball << " has no package/package.json with a version\n";
    return std::nullopt;
  }
  const azure_pricing::StatusOr<std::string> text =
      base::ReadFile(Runfile(image::kPinsRunfile));
  const azure_pricing::StatusOr<std::vector<image::AzmcpPin>> pins =
      text.ok() ? image::ParsePins(*text)
                : azure_pricing::StatusOr<std::vector<image::AzmcpPin>>(text.status());
  const std::string actual = Sha256(tarball);
  if (!pins.ok() || actual.empty()) {
    std::cerr << "sandbox_image: cannot read " << image::kPinsRunfile
              << " or hash the tarball\n";
    return std::nullopt;
  }
  const azure_pricing::Status checked =
      image::CheckTarball(*pins, version, actual, given_sha256);
  if (!checked.ok()) {
    std::cerr << "sandbox_image: refusing " << tarball << " (version " << version << ", sha256 "
              << actual << "): " << checked.message() << "\n";
    return std::nullopt;
  }
  const std::optional<std::string> cli = Unpack(tarball, scratch, "package/dist/azmcp");
  if (!cli) std::cerr << "sandbox_image: " << tarball << " has no package/dist/azmcp\n";
  return cli;
}

// Fills the CLI half of `image` from the flags; false after saying why. A tarball is unpacked
// into `scratch`, which the caller removes.
bool ChooseCli(const base::Flags& flags, const std::string& out, bwrap::ImageSources& image,
               std::string& scratch) {
  if (flags.Has("--fake-azmcp")) {
    image.azmcp = Runfile("fakes/azmcp/azmcp");
    image.dotnet_bundle = false;
    image.provenance = "the fake azmcp (//fakes/azmcp)";
    return true;
  }
  if (const auto binary = flags.Value("--azmcp-binary")) {
    image.azmcp = base::CallerPath(*binary);
    image.provenance = image.azmcp + " (sha256 " + Sha256(image.azmcp) + ")";
    return true;
  }
  const std::string tarball = base::CallerPath(*flags.Value("--azmcp-tarball"));
  scratch = out + ".unpack";
  std::filesystem::create_directories(scratch);
  const std::optional<std::string> cli = CheckedCli(tarball, scratch, flags.Value("--sha256"));
  if (!cli) {
    std::filesystem::remove_all(scratch);
    return false;
  }
  image.azmcp = *cli;
  image.provenance = "npm tarball " + tarball + " (sha256 " + Sha256(tarball) + ")";
  return true;
}

// The paths, checked before anything is unpacked or assembled: each bad one is named with its
// flag and the reason.
std::string PathProblem(const base::Flags& flags) {
  if (std::string problem = base::FirstPathProblem({
          {"--out", flags.Value("--out"), base::CheckNewDirectory},
          {"--azmcp-tarball", flags.Value("--azmcp-tarball"), base::CheckReadableFile},
          {"--azmcp-binary", flags.Value("--azmcp-binary"), base::CheckExecutableFile},
      });
      !problem.empty()) {
    return problem;
  }
  // A tarball is unpacked beside the image and the scratch removed afterwards: it must not be
  // somebody's directory.
  if (flags.Value("--azmcp-tarball")) {
    const std::string scratch = *flags.Value("--out") + ".unpack";
    if (const azure_pricing::Status s = base::CheckNewDirectory(base::CallerPath(scratch));
        !s.ok()) {
      return "--out " + *flags.Value("--out") + ": its scratch directory " + scratch + ": " +
             s.message();
    }
  }
  return "";
}

}  // namespace

static int UnguardedMain(int argc, char** argv) {
  std::string problem;
  const azure_pricing::StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(
      argc, argv,
      {{"--help", base::FlagKind::kSwitch}, {"--out", base::FlagKind::kValue},
       {"--azmcp-tarball", base::FlagKind::kValue}, {"--azmcp-binary", base::FlagKind::kValue},
       {"--fake-azmcp", base::FlagKind::kSwitch}, {"--no-probe", base::FlagKind::kSwitch},
       {"--sha256", base::FlagKind::kValue}},
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
  if (flags->Value("--sha256") && !flags->Value("--azmcp-tarball")) {
    return Usage("--sha256 checks a tarball: give it with --azmcp-tarball");
  }
  if (problem = PathProblem(*flags); !problem.empty()) return Usage(problem);
  const std::string out = base::CallerPath(*flags->Value("--out"));
  bwrap::ImageSources image{.sandbox_init = Runfile("ref/sandbox/bwrap/sandbox_init"),
                            .probe = flags->Has("--no-probe")
                                         ? ""
                                         : Runfile("conformance/backend/probe/sandbox_probe")};
  std::string scratch;
  if (!ChooseCli(*flags, out, image, scratch)) return 1;
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

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("sandbox_image", [&] { return UnguardedMain(argc, argv); });
}
