#include "ref/base/scoped_temp_dir.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::base {
namespace {

bool IsDir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

class ScopedTempDirTest : public ::testing::Test {
 protected:
  void SetUp() override { setenv("TMPDIR", TestTmpDir().c_str(), 1); }
};

TEST_F(ScopedTempDirTest, IsMadeUnderTmpdirAndGoesWithEverythingInIt) {
  std::string path;
  {
    StatusOr<ScopedTempDir> dir = ScopedTempDir::Make("work");
    ASSERT_THAT(dir.status(), IsOk());
    path = dir->path();
    EXPECT_EQ(path.rfind(TestTmpDir() + "/work-", 0), 0u) << path;
    ASSERT_TRUE(IsDir(path));
    std::filesystem::create_directories(path + "/a/b");
    std::ofstream(path + "/a/b/file") << "x";
  }
  EXPECT_FALSE(std::filesystem::exists(path)) << path;
}

TEST_F(ScopedTempDirTest, AMoveHandsOverTheDirectoryOnce) {
  StatusOr<ScopedTempDir> made = ScopedTempDir::Make("moved");
  ASSERT_THAT(made.status(), IsOk());
  const std::string path = made->path();
  ScopedTempDir owner;
  EXPECT_EQ(owner.path(), "");
  owner = std::move(*made);
  EXPECT_EQ(owner.path(), path);
  EXPECT_EQ(made->path(), "");  // NOLINT(bugprone-use-after-move): what a move leaves
  {
    ScopedTempDir taken(std::move(owner));
    EXPECT_TRUE(IsDir(path));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  // Assigning over an owner removes what it owned.
  StatusOr<ScopedTempDir> first = ScopedTempDir::Make("first");
  StatusOr<ScopedTempDir> second = ScopedTempDir::Make("second");
  ASSERT_THAT(first.status(), IsOk());
  ASSERT_THAT(second.status(), IsOk());
  const std::string first_path = first->path();
  *first = std::move(*second);
  EXPECT_FALSE(std::filesystem::exists(first_path));
  EXPECT_TRUE(IsDir(first->path()));
}

TEST_F(ScopedTempDirTest, NoDirectoryWhereNoneCanBeMadeIsAnError) {
  setenv("TMPDIR", "/proc/no-such-dir", 1);
  EXPECT_THAT(ScopedTempDir::Make("x").status(), ProgramErrorIs(kTempDirFailed));
}

}  // namespace
}  // namespace azure_pricing::base
