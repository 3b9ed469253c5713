#include "ref/base/test_tmpdir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace azure_pricing::base {
namespace {

TEST(TestTmpDirTest, IsBazelsWhenSet) {
  const char* bazel = std::getenv("TEST_TMPDIR");
  ASSERT_NE(bazel, nullptr);
  EXPECT_EQ(TestTmpDir(), bazel);
  EXPECT_EQ(&TestTmpDir(), &TestTmpDir());
}

// A test binary run by hand: a directory of its own, made once.
TEST(TestTmpDirTest, WithoutBazelsAFreshDirectoryIsMade) {
  // A fresh process, so that no earlier call has chosen the directory already.
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  ASSERT_EXIT(
      {
        unsetenv("TEST_TMPDIR");
        const std::string& dir = TestTmpDir();
        struct stat st;
        const bool made = dir.rfind("/tmp/azure-pricing-test.", 0) == 0 &&
                          stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
                          &dir == &TestTmpDir();
        rmdir(dir.c_str());
        std::exit(made ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace azure_pricing::base
