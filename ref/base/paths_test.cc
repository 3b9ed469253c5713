#include "ref/base/paths.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace azure_pricing::base {
namespace {

TEST(PathsTest, ProgramsAreFoundOnPathOnlyWithoutASlash) {
  setenv("PATH", "/nonexistent:/bin", 1);
  EXPECT_EQ(FindOnPath("sh"), "/bin/sh");
  EXPECT_EQ(FindOnPath("no-such-program-here"), "");
  EXPECT_EQ(ResolveProgram("sh"), "/bin/sh");
  EXPECT_EQ(ResolveProgram("./sh"), "./sh");
  EXPECT_EQ(ResolveProgram("no-such-program-here"), "no-such-program-here");
}

TEST(PathsTest, RelativePathsMeanTheCallersDirectoryUnderBazelRun) {
  unsetenv("BUILD_WORKING_DIRECTORY");
  EXPECT_EQ(CallerPath("img"), "img");
  setenv("BUILD_WORKING_DIRECTORY", "/home/me", 1);
  EXPECT_EQ(CallerDirectory(), "/home/me");
  EXPECT_EQ(CallerPath("img"), "/home/me/img");
  EXPECT_EQ(CallerPath("/abs"), "/abs");
  EXPECT_EQ(CallerPath(""), "");
}

}  // namespace
}  // namespace azure_pricing::base
