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
  EXPECT_THAT(ReadFile(TempDir() + "/does-not-exist"), ProgramErrorIs(kFileNotFound));
  EXPECT_THAT(ReadFile(TempDir()), ProgramErrorIs(kFileIsDirectory));
  const std::string path = TempDir() + "/files_test_large";
  ASSERT_THAT(WriteFileAtomically(path, std::string(100, 'x')), IsOk());
  EXPECT_THAT(ReadFile(path, 99), ProgramErrorIs(kFileTooLarge));
  EXPECT_THAT(ReadFile(path, 100), IsOk());
  EXPECT_THAT(WriteFileAtomically(TempDir() + "/no/such/dir/file", "x"),
              ProgramErrorIs(kFileNotWritten));
}

// The start-up checks name each kind of bad path before any work is done.
TEST(FilesTest, StartUpChecksNameEachBadPath) {
  const std::string dir = TempDir();
  const std::string file = dir + "/files_test_checks";
  ASSERT_THAT(WriteFileAtomically(file, "x"), IsOk());
  ASSERT_EQ(::chmod(file.c_str(), 0644), 0);
  EXPECT_THAT(CheckReadableFile(file), IsOk());
  EXPECT_THAT(CheckReadableFile(dir + "/nope"), ProgramErrorIs(kFileNotFound));
  EXPECT_THAT(CheckReadableFile(dir), ProgramErrorIs(kFileIsDirectory));

  EXPECT_THAT(CheckWritableFile(file), IsOk());
  EXPECT_THAT(CheckWritableFile(dir + "/new-file"), IsOk());
  EXPECT_THAT(CheckWritableFile(dir), ProgramErrorIs(kFileIsDirectory));
  EXPECT_THAT(CheckWritableFile(dir + "/no/such/file"), ProgramErrorIs(kFileNoDirectory));
  EXPECT_THAT(CheckWritableFile(""), ProgramErrorIs(kFileNotFound));
  EXPECT_THAT(CheckWritableFile("/dev/null"), ProgramErrorIs(kFileNotRegular));
  const std::string fifo = dir + "/files_test_fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_THAT(CheckWritableFile(fifo), ProgramErrorIs(kFileNotRegular));

  EXPECT_THAT(CheckNewDirectory(dir + "/new-dir"), IsOk());
  EXPECT_THAT(CheckNewDirectory(dir + "/new-dir/"), IsOk());  // a trailing slash is no level
  EXPECT_THAT(CheckNewDirectory(""), ProgramErrorIs(kFileNotFound));
  EXPECT_THAT(CheckNewDirectory(file), ProgramErrorIs(kFileExists));
  EXPECT_THAT(CheckNewDirectory(dir + "/no/such/dir"), ProgramErrorIs(kFileNoDirectory));

  EXPECT_THAT(CheckExistingDirectory(dir), IsOk());
  EXPECT_THAT(CheckExistingDirectory(file), ProgramErrorIs(kFileNotDirectory));
  EXPECT_THAT(CheckExistingDirectory(dir + "/nope"), ProgramErrorIs(kFileNotFound));

  EXPECT_THAT(CheckExecutableFile(file), ProgramErrorIs(kFileNotExecutable));
  ASSERT_EQ(::chmod(file.c_str(), 0755), 0);
  EXPECT_THAT(CheckExecutableFile(file), IsOk());
  EXPECT_THAT(CheckExecutableFile(dir), ProgramErrorIs(kFileIsDirectory));
  EXPECT_THAT(CheckExecutableFile(dir + "/nope"), ProgramErrorIs(kFileNotFound));
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
