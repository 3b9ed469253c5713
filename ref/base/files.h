// Whole-file reading and writing for programs and tests. Non-semantic: it knows bytes and paths,
// nothing about what the files mean, so both ref/ and fakes/ may use it.
#ifndef REF_BASE_FILES_H_
#define REF_BASE_FILES_H_

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "ref/status/status.h"

namespace azure_pricing::base {

// Reason codes of program errors (ProgramError). The message names the failure, never the
// path: callers that talk to a person add the path themselves.
inline constexpr Reason kFileNotFound = "file_not_found";
inline constexpr Reason kFileIsDirectory = "file_is_directory";
inline constexpr Reason kFileUnreadable = "file_unreadable";
inline constexpr Reason kFileTooLarge = "file_too_large";
inline constexpr Reason kFileNotWritten = "file_not_written";
inline constexpr Reason kFileNoDirectory = "file_no_directory";
inline constexpr Reason kFileExists = "file_exists";
inline constexpr Reason kFileNotExecutable = "file_not_executable";
inline constexpr Reason kFileNotDirectory = "file_not_directory";
inline constexpr Reason kFileNotRegular = "file_not_regular";

// The default cap: far above any fixture, catalog chunk or recording the project reads.
inline constexpr size_t kDefaultMaxFileBytes = size_t{4} << 30;

// The whole content of a regular file (or a pipe or device read to its end).
StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes = kDefaultMaxFileBytes);

// Writes `content` to `path`, replacing it; the write goes to a temporary file beside it that is
// renamed into place, so a reader never sees half a file.
Status WriteFileAtomically(const std::string& path, std::string_view content);

// Checks a program makes at start, so that a bad path is named before any work is done rather
// than after it. Each gives the reason codes above.
// A file to read: it exists, is not a directory, and opens for reading.
Status CheckReadableFile(const std::string& path);
// A file to write later: a regular file or nothing yet, and the directory it goes in exists and
// is writable.
Status CheckWritableFile(const std::string& path);
// A directory to create later: nothing is there yet, and its parent exists and is writable.
Status CheckNewDirectory(const std::string& path);
// A directory to read: it exists and is a directory.
Status CheckExistingDirectory(const std::string& path);
// A program to run: a file (not a directory) with execute permission.
Status CheckExecutableFile(const std::string& path);

// The line for a person: "--json out/: it is a directory, not a file".
std::string PathProblem(std::string_view flag, std::string_view path, const Status& status);

// One flag's path and the check it must pass; `path` is empty when the flag was not given.
struct FlagPath {
  std::string_view flag;
  std::optional<std::string> path;
  Status (*check)(const std::string& path);
};

// The first given path that fails its check, as PathProblem's line; empty when all pass. Each is
// checked at CallerPath(path): under `bazel run` a relative path means the caller's directory.
std::string FirstPathProblem(std::initializer_list<FlagPath> paths);

}  // namespace azure_pricing::base

#endif  // REF_BASE_FILES_H_
