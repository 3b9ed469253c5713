#include "ref/sandbox/bwrap/state_tree.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

std::string Fresh(const std::string& name) {
  const std::string dir = base::TestTmpDir() + "/" + name;
  EXPECT_THAT(RemoveTree(dir), IsOk());
  return dir;
}

void Write(const std::string& path, size_t bytes) {
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
}

bool Exists(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  lstat(path.c_str(), &st);
  return st.st_mode & 07777;
}

// What a program may leave: a read-only directory, one without any permission, a file without
// permissions, a link out of the tree and a link to a directory outside.
std::string Hostile(const std::string& root, const std::string& outside) {
  EXPECT_THAT(MakeStateTree(root), IsOk());
  const std::string tmp = root + "/tmp";
  mkdir((tmp + "/ro").c_str(), 0755);
  Write(tmp + "/ro/file", 10000);
  chmod((tmp + "/ro").c_str(), 0555);
  mkdir((tmp + "/closed").c_str(), 0700);
  mkdir((tmp + "/closed/deeper").c_str(), 0700);
  Write(tmp + "/closed/deeper/file", 20000);
  chmod((tmp + "/closed").c_str(), 0);
  Write(tmp + "/unreadable", 30000);
  chmod((tmp + "/unreadable").c_str(), 0);
  EXPECT_EQ(symlink((outside + "/keep").c_str(), (tmp + "/link").c_str()), 0);
  EXPECT_EQ(symlink(outside.c_str(), (tmp + "/dirlink").c_str()), 0);
  return tmp;
}

TEST(StateTreeTest, MakesTmpAndHomePrivateToTheBackend) {
  const std::string root = Fresh("made");
  ASSERT_THAT(MakeStateTree(root), IsOk());
  for (const std::string& dir : {root, root + "/tmp", root + "/home"}) {
    EXPECT_EQ(ModeOf(dir), 0700u) << dir;
  }
  EXPECT_THAT(MakeStateTree(root), StatusIs(Outcome::kFailed, kStateTreeFailed));
}

TEST(StateTreeTest, RemovesWhateverTheProgramLeftWithoutFollowingLinks) {
  const std::string outside = Fresh("outside");
  ASSERT_EQ(mkdir(outside.c_str(), 0700), 0);
  Write(outside + "/keep", 5);
  const std::string root = Fresh("hostile");
  Hostile(root, outside);
  EXPECT_THAT(RemoveTree(root), IsOk());
  EXPECT_FALSE(Exists(root));
  EXPECT_TRUE(Exists(outside + "/keep"));
  EXPECT_THAT(RemoveTree(root), IsOk());  // already gone
}

TEST(StateTreeTest, CountsAllocatedBytesAndPutsModesBack) {
  const std::string outside = Fresh("outside-count");
  ASSERT_EQ(mkdir(outside.c_str(), 0700), 0);
  Write(outside + "/keep", 1 << 20);  // behind a link: not counted
  const std::string root = Fresh("counted");
  const std::string tmp = Hostile(root, outside);
  const uint64_t bytes = TreeBytes(root);
  EXPECT_GE(bytes, 60000u);
  EXPECT_LT(bytes, 1u << 20);
  EXPECT_EQ(ModeOf(tmp + "/closed"), 0u);
  EXPECT_EQ(ModeOf(tmp + "/ro"), 0555u);
  EXPECT_EQ(TreeBytes(root + "/missing"), 0u);
}

TEST(StateTreeTest, EmptyingKeepsTheDirectoryItself) {
  const std::string outside = Fresh("outside-empty");
  ASSERT_EQ(mkdir(outside.c_str(), 0700), 0);
  const std::string root = Fresh("emptied");
  const std::string tmp = Hostile(root, outside);
  ASSERT_THAT(EmptyTree(tmp), IsOk());
  EXPECT_TRUE(Exists(tmp));
  EXPECT_EQ(TreeBytes(tmp), 0u);
  EXPECT_TRUE(Exists(root + "/home"));
}

}  // namespace
}  // namespace azure_pricing::sandbox::bwrap
