// //tools:sandbox_image uses an npm tarball only when its sha256 is the one azmcp-pins.tsv
// records for the version inside it, or, for an unpinned version, the one given with --sha256.
// The tarballs here are tiny synthetic ones (package/package.json and a package/dist/azmcp
// that "unpacks" like a .NET bundle), so the real 62 MB package is never needed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/sandbox/bwrap/bounded_process.h"
#include "ref/sandbox/bwrap/command_line.h"
#include "tools/image/pins.h"

namespace azure_pricing::tools::image {
CITES("HOST-004");
namespace {

namespace fs = std::filesystem;
namespace bwrap = sandbox::bwrap;

// Stands in for the bundle: its first run fills the extraction directory, as .NET's does.
constexpr char kFakeBundle[] =
    "#!/bin/sh\n"
    "mkdir -p \"$DOTNET_BUNDLE_EXTRACT_BASE_DIR/azmcp/synthetic\" &&\n"
    "echo native > \"$DOTNET_BUNDLE_EXTRACT_BASE_DIR/azmcp/synthetic/lib.so\"\n";

sandbox::ExecResult RunProgram(std::vector<std::string> argv) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const StatusOr<sandbox::ExecResult> r = bwrap::RunBounded(
      {.argv = std::move(argv),
       .env = {"PATH=/usr/bin:/bin", "LANG=C", std::string("TEST_SRCDIR=") + (srcdir ? srcdir : "")},
       .timeout_ms = 30'000});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : sandbox::ExecResult{.exit_code = -1};
}

class SandboxImagePinsTest : public testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    dir_ = fs::path(tmp ? tmp : "/tmp") / testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const StatusOr<std::string> text = base::ReadFile(base::Runfile(kPinsRunfile));
    ASSERT_TRUE(text.ok());
    const StatusOr<std::vector<AzmcpPin>> pins = ParsePins(*text);
    ASSERT_TRUE(pins.ok() && !pins->empty());
    pinned_version_ = pins->front().version;
  }

  // A .tgz of package/package.json naming `version` and package/dist/azmcp; its path.
  std::string Tarball(const std::string& version) {
    const fs::path root = dir_ / ("src-" + version);
    fs::create_directories(root / "package/dist");
    EXPECT_TRUE(base::WriteFileAtomically((root / "package/package.json").string(),
                                          "{\"name\": \"@azure/mcp-linux-x64\", \"version\": \"" +
                                              version + "\"}\n")
                    .ok());
    EXPECT_TRUE(base::WriteFileAtomically((root / "package/dist/azmcp").string(), kFakeBundle).ok());
    fs::permissions(root / "package/dist/azmcp", fs::perms::owner_all);
    const std::string tgz = (dir_ / (version + ".tgz")).string();
    EXPECT_EQ(RunProgram({"/usr/bin/tar", "-czf", tgz, "-C", root.string(), "package"}).exit_code, 0);
    return tgz;
  }

  static std::string Sha256(const std::string& path) {
    return RunProgram({"/usr/bin/sha256sum", path}).stdout_bytes.substr(0, 64);
  }

  sandbox::ExecResult SandboxImage(const std::string& tarball, std::vector<std::string> extra) {
    std::vector<std::string> argv = {base::Runfile("tools/sandbox_image"), "--out", Out(),
                                     "--azmcp-tarball", tarball, "--no-probe"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return RunProgram(std::move(argv));
  }

  std::string Out() const { return (dir_ / "image").string(); }

  fs::path dir_;
  std::string pinned_version_;
};

TEST_F(SandboxImagePinsTest, RefusesAPinnedVersionWhoseSha256IsNotItsPin) {
  const sandbox::ExecResult r = SandboxImage(Tarball(pinned_version_), {});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.stderr_bytes.find("not the one recorded for its version"), std::string::npos)
      << r.stderr_bytes;
  EXPECT_FALSE(fs::exists(Out()));
  EXPECT_FALSE(fs::exists(Out() + ".unpack"));
}

TEST_F(SandboxImagePinsTest, AGivenSha256NeverOverridesAPin) {
  const std::string tarball = Tarball(pinned_version_);
  const sandbox::ExecResult r = SandboxImage(tarball, {"--sha256", Sha256(tarball)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.stderr_bytes.find("not the one recorded"), std::string::npos) << r.stderr_bytes;
  EXPECT_FALSE(fs::exists(Out()));
}

TEST_F(SandboxImagePinsTest, RefusesAnUnpinnedVersionWithoutSha256AndSaysHowToPinIt) {
  const sandbox::ExecResult r = SandboxImage(Tarball("0.0.0-synthetic"), {});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.stderr_bytes.find("tools/image/pin VERSION"), std::string::npos) << r.stderr_bytes;
  EXPECT_FALSE(fs::exists(Out()));
}

TEST_F(SandboxImagePinsTest, RefusesAnUnpinnedVersionWhoseSha256IsNotTheGivenOne) {
  const sandbox::ExecResult r =
      SandboxImage(Tarball("0.0.0-synthetic"), {"--sha256", std::string(64, '0')});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.stderr_bytes.find("not the one given by --sha256"), std::string::npos)
      << r.stderr_bytes;
  EXPECT_FALSE(fs::exists(Out()));
}

TEST_F(SandboxImagePinsTest, AssemblesAnUnpinnedVersionWithItsGivenSha256) {
  const std::string tarball = Tarball("0.0.0-synthetic");
  const std::string sha256 = Sha256(tarball);
  const sandbox::ExecResult r = SandboxImage(tarball, {"--sha256", sha256});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_bytes;
  EXPECT_TRUE(fs::exists(Out() + bwrap::kBundlePath));
  EXPECT_FALSE(fs::is_empty(Out() + bwrap::kBundleExtractDir));
  const StatusOr<std::string> image_json = base::ReadFile(Out() + "/IMAGE.json");
  ASSERT_TRUE(image_json.ok());
  EXPECT_NE(image_json->find("sha256 " + sha256), std::string::npos) << *image_json;
}

}  // namespace
}  // namespace azure_pricing::tools::image
