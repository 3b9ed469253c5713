// Holds tools/image's Containerfile and pins to the constants the code itself uses: where the
// tool runs the CLI, where the bubblewrap image and the backend suite put their programs, where
// the bundle is unpacked, which user runs, and which CLI version the specification pins.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/pricing/command.h"
#include "ref/pricing/package.h"
#include "ref/sandbox/bwrap/command_line.h"
#include "tools/image/pins.h"

namespace azure_pricing::tools::image {
CITES("HOST-004", "HOST-005");
namespace {

namespace bwrap = sandbox::bwrap;

struct Instruction {
  std::string keyword;  // upper case, as written
  std::string rest;
};

struct Stage {
  std::string from;  // the FROM line after the keyword
  std::vector<Instruction> instructions;
};

struct Recipe {
  std::vector<Instruction> before_first_from;
  std::vector<Stage> stages;
};

std::string Read(const std::string& workspace_relative) {
  const StatusOr<std::string> text = base::ReadFile(base::Runfile(workspace_relative));
  EXPECT_TRUE(text.ok()) << workspace_relative;
  return text.ok() ? *text : "";
}

// Continuation lines joined, comments and blank lines dropped, each stage's instructions apart.
Recipe Parse(const std::string& text) {
  Recipe recipe;
  std::string logical;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? end : end - start);
    start = end == std::string::npos ? text.size() : end + 1;
    if (logical.empty() && (line.empty() || line.front() == '#')) continue;
    if (!line.empty() && line.back() == '\\') {
      logical += line.substr(0, line.size() - 1);
      continue;
    }
    logical += line;
    const size_t space = logical.find(' ');
    Instruction in{logical.substr(0, space),
                   space == std::string::npos ? "" : logical.substr(space + 1)};
    logical.clear();
    if (in.keyword == "FROM") {
      recipe.stages.push_back({in.rest, {}});
    } else if (recipe.stages.empty()) {
      recipe.before_first_from.push_back(in);
    } else {
      recipe.stages.back().instructions.push_back(in);
    }
  }
  return recipe;
}

std::vector<std::string> All(const Stage& stage, const std::string& keyword) {
  std::vector<std::string> out;
  for (const Instruction& in : stage.instructions) {
    if (in.keyword == keyword) out.push_back(in.rest);
  }
  return out;
}

bool Contains(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

std::string Parent(const std::string& path) { return path.substr(0, path.rfind('/') + 1); }

class RecipeTest : public testing::Test {
 protected:
  void SetUp() override {
    recipe_ = Parse(Read("tools/image/Containerfile"));
    ASSERT_EQ(recipe_.stages.size(), 2u) << "a build stage and the run-time stage";
  }
  const Stage& Build() const { return recipe_.stages.front(); }
  const Stage& Final() const { return recipe_.stages.back(); }
  Recipe recipe_;
};

TEST_F(RecipeTest, DefaultVersionIsTheOneTheSpecificationPins) {
  ASSERT_EQ(recipe_.before_first_from.size(), 1u);
  EXPECT_EQ(recipe_.before_first_from[0].keyword, "ARG");
  EXPECT_EQ(recipe_.before_first_from[0].rest, std::string("AZMCP_VERSION=") + kPinnedCliVersion);
  EXPECT_TRUE(Contains(All(Build(), "ARG"), "AZMCP_VERSION"));
}

TEST_F(RecipeTest, TheBuildStageChecksThePinThenInstallsTheBundleWhereTheCodeExpectsIt) {
  const std::vector<std::string> runs = All(Build(), "RUN");
  ASSERT_GE(runs.size(), 2u);
  // The refusal of an unpinned version comes before anything is installed or downloaded.
  EXPECT_EQ(runs[0], "/build/install_azmcp --check-pin \"${AZMCP_VERSION}\" /build/azmcp-pins.tsv");
  const std::string install = std::string("/build/install_azmcp \"${AZMCP_VERSION}\" ") +
                              "/build/azmcp-pins.tsv " + bwrap::kBundlePath + " " +
                              bwrap::kBundleExtractDir;
  bool installed = false;
  for (const std::string& run : runs) installed |= run.ends_with(install);
  EXPECT_TRUE(installed) << "no RUN ends with: " << install;
}

TEST_F(RecipeTest, TheRunTimeStageHasNoShellAndHoldsEveryProgramAtItsPath) {
  EXPECT_NE(Final().from.find("distroless"), std::string::npos) << Final().from;
  EXPECT_TRUE(All(Final(), "RUN").empty()) << "RUN needs a shell in the image";
  for (const std::string& cmd : All(Final(), "CMD")) EXPECT_EQ(cmd.front(), '[') << cmd;
  EXPECT_TRUE(All(Final(), "ENTRYPOINT").empty());
  const std::vector<std::string> copies = All(Final(), "COPY");
  EXPECT_TRUE(Contains(copies, "bin/azmcp_launcher " + std::string(kAzmcpPath)));
  EXPECT_TRUE(Contains(copies, std::string("bin/sandbox_init ") + bwrap::kInitPath));
  EXPECT_TRUE(Contains(copies, std::string("bin/sandbox_probe ") + bwrap::kProbePath));
  // The bundle and its pre-unpacked libraries come over together, from the build stage.
  ASSERT_EQ(Parent(bwrap::kBundlePath), Parent(bwrap::kBundleExtractDir));
  const std::string bundle_dir = Parent(bwrap::kBundlePath);
  EXPECT_TRUE(Contains(copies, "--from=cli " + bundle_dir + " " + bundle_dir));
  EXPECT_TRUE(Contains(copies, std::string("--from=cli /mountpoints/ ") + Parent(bwrap::kRunDir)));
}

TEST_F(RecipeTest, TheCliTrustsOnlyTheEgressCaAndRunsAsTheSandboxUser) {
  EXPECT_TRUE(Contains(All(Final(), "ENV"), std::string("SSL_CERT_FILE=") + bwrap::kEgressCaInside));
  const std::vector<std::string> users = All(Final(), "USER");
  ASSERT_EQ(users.size(), 1u);
  EXPECT_EQ(users[0], std::string(bwrap::kSandboxUid) + ":" + bwrap::kSandboxUid);
  EXPECT_NE(users[0].substr(0, users[0].find(':')), "0");
  EXPECT_NE(users[0].substr(0, 4), "root");
}

TEST_F(RecipeTest, TheContextProvidesEveryFileTheRecipeCopiesFromIt) {
  const std::string context = Read("tools/image/context");
  for (const std::string& copy : All(Final(), "COPY")) {
    if (copy.starts_with("--from=")) continue;
    const std::string source = copy.substr(0, copy.find(' '));
    const std::string name = source.substr(source.rfind('/') + 1);
    EXPECT_NE(context.find(":" + name + "\n"), std::string::npos) << source;
  }
}

TEST(PinsFileTest, EveryVersionHasAWellFormedSha256AndTheCliWeModelIsPinned) {
  const StatusOr<std::vector<AzmcpPin>> pins = ParsePins(Read(kPinsRunfile));
  ASSERT_TRUE(pins.ok()) << pins.status().message();
  ASSERT_FALSE(pins->empty());
  for (const AzmcpPin& pin : *pins) EXPECT_TRUE(IsSha256Hex(pin.sha256)) << pin.version;
  const std::string modelled = kModelledOnCli;
  EXPECT_NE(FindPin(*pins, modelled.substr(modelled.rfind(' ') + 1)), nullptr) << modelled;
}

TEST(PinsFileTest, ToolsBazelTakesItsVersionFromTheVersionFileAndItsPinFromThePinsFile) {
  const std::string wrapper = Read("tools/bazel");
  EXPECT_NE(wrapper.find("image/azmcp-version"), std::string::npos);
  EXPECT_FALSE(std::regex_search(wrapper, std::regex("AZMCP_VERSION=\"[0-9]")))
      << "tools/bazel names a version of its own";
  std::smatch current;
  const std::string versions = Read("tools/image/azmcp-version");
  ASSERT_TRUE(std::regex_search(versions, current, std::regex("(^|\n)current\t([^\n]+)")));
  const StatusOr<std::vector<AzmcpPin>> pins = ParsePins(Read(kPinsRunfile));
  ASSERT_TRUE(pins.ok());
  EXPECT_NE(FindPin(*pins, current[2].str()), nullptr) << current[2];
  EXPECT_NE(wrapper.find("image/azmcp-pins.tsv"), std::string::npos);
  EXPECT_FALSE(std::regex_search(wrapper, std::regex("[0-9a-f]{64}")))
      << "tools/bazel records a sha256 of its own";
}

}  // namespace
}  // namespace azure_pricing::tools::image
