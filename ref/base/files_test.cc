#include "ref/base/files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "ref/status/status_matchers.h"

namespace azure_pricing::base {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

TEST(FilesTest, WritesAtomicallyAndReadsBack) {
  const std::string path = TempDir() + "/files_test_roundtrip";
  const std::string content("line 1\nbinary \0 byte\n", 21);
  ASSERT_THAT(WriteFileAtomically(path, content), IsOk());
  const StatusOr<std::string> read = ReadFile(path);
  ASSERT_THAT(read, IsOk());
  EXPECT_EQ(*read, content);
}

TEST(FilesTest, NamesEachFailure) {
  EXPECT_THAT(ReadFile(TempDir() + "/does-not-exist"), StatusIs(Outcome::kFailed, kFileNotFound));
  EXPECT_THAT(ReadFile(TempDir()), StatusIs(Outcome::kFailed, kFileIsDirectory));
  const std::string path = TempDir() + "/files_test_large";
  ASSERT_THAT(WriteFileAtomically(path, std::string(100, 'x')), IsOk());
  EXPECT_THAT(ReadFile(path, 99), StatusIs(Outcome::kFailed, kFileTooLarge));
  EXPECT_THAT(ReadFile(path, 100), IsOk());
  EXPECT_THAT(WriteFileAtomically(TempDir() + "/no/such/dir/file", "x"),
              StatusIs(Outcome::kFailed, kFileNotWritten));
}

// The start-up checks name each kind of bad path before any work is done.
TEST(FilesTest, StartUpChecksNameEachBadPath) {
  const std::string dir = TempDir();
  const std::string file = dir + "/files_test_checks";
  ASSERT_THAT(WriteFileAtomically(file, "x"), IsOk());
  ASSERT_EQ(::chmod(file.c_str(), 0644), 0);
  EXPECT_THAT(CheckReadableFile(file), IsOk());
  EXPECT_THAT(CheckReadableFile(dir + "/nope"), StatusIs(Outcome::kFailed, kFileNotFound));
  EXPECT_THAT(CheckReadableFile(dir), StatusIs(Outcome::kFailed, kFileIsDirectory));

  EXPECT_THAT(CheckWritableFile(file), IsOk());
  EXPECT_THAT(CheckWritableFile(dir + "/new-file"), IsOk());
  EXPECT_THAT(CheckWritableFile(dir), StatusIs(Outcome::kFailed, kFileIsDirectory));
  EXPECT_THAT(CheckWritableFile(dir + "/no/such/file"),
              StatusIs(Outcome::kFailed, kFileNoDirectory));
  EXPECT_THAT(CheckWritableFile(""), StatusIs(Outcome::kFailed, kFileNotFound));
  EXPECT_THAT(CheckWritableFile("/dev/null"), StatusIs(Outcome::kFailed, kFileNotRegular));
  const std::string fifo = dir + "/files_test_fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_THAT(CheckWritableFile(fifo), StatusIs(Outcome::kFailed, kFileNotRegular));

  EXPECT_THAT(CheckNewDirectory(dir + "/new-dir"), IsOk());
  EXPECT_THAT(CheckNewDirectory(dir + "/new-dir/"), IsOk());  // a trailing slash is no level
  EXPECT_THAT(CheckNewDirectory(""), StatusIs(Outcome::kFailed, kFileNotFound));
  EXPECT_THAT(CheckNewDirectory(file), StatusIs(Outcome::kFailed, kFileExists));
  EXPECT_THAT(CheckNewDirectory(dir + "/no/such/dir"),
              StatusIs(Outcome::kFailed, kFileNoDirectory));

  EXPECT_THAT(CheckExistingDirectory(dir), IsOk());
  EXPECT_THAT(CheckExistingDirectory(file), StatusIs(Outcome::kFailed, kFileNotDirectory));
  EXPECT_THAT(CheckExistingDirectory(dir + "/nope"), StatusIs(Outcome::kFailed, kFileNotFound));

  EXPECT_THAT(CheckExecutableFile(file), StatusIs(Outcome::kFailed, kFileNotExecutable));
  ASSERT_EQ(::chmod(file.c_str(), 0755), 0);
  EXPECT_THAT(CheckExecutableFile(file), IsOk());
  EXPECT_THAT(CheckExecutableFile(dir), StatusIs(Outcome::kFailed, kFileIsDirectory));
  EXPECT_THAT(CheckExecutableFile(dir + "/nope"), StatusIs(Outcome::kFailed, kFileNotFound));
}

TEST(FilesTest, FirstPathProblemNamesTheFirstGivenPathThatFails) {
  const std::string dir = TempDir();
  EXPECT_EQ(FirstPathProblem({{"--a", std::nullopt, CheckReadableFile},
                              {"--b", dir, CheckExistingDirectory}}),
            "");
  EXPECT_EQ(FirstPathProblem({{"--a", std::nullopt, CheckReadableFile},
                              {"--b", dir, CheckReadableFile},
                              {"--c", dir + "/nope", CheckReadableFile}}),
            "--b " + dir + ": it is a directory, not a file");
}

TEST(FilesTest, MessagesNeverContainThePath) {
  const std::string path = TempDir() + "/secret-name-not-in-message";
  const StatusOr<std::string> read = ReadFile(path);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.status().message(), ::testing::Not(::testing::HasSubstr("secret")));
}

}  // namespace
}  // namespace azure_pricing::base
