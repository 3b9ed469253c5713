// Whole-file reading and writing for programs and tests. Non-semantic: it knows bytes and paths,
// nothing about what the files mean, so both ref/ and fakes/ may use it.
#ifndef REF_BASE_FILES_H_
#define REF_BASE_FILES_H_

#include <string>
#include <string_view>

#include "ref/status/status.h"

namespace azure_pricing::base {

// Reason codes (Outcome::kFailed). The message names the failure, never the path: callers that
// talk to a person add the path themselves.
inline constexpr char kFileNotFound[] = "file_not_found";
inline constexpr char kFileIsDirectory[] = "file_is_directory";
inline constexpr char kFileUnreadable[] = "file_unreadable";
inline constexpr char kFileTooLarge[] = "file_too_large";
inline constexpr char kFileNotWritten[] = "file_not_written";

// The default cap: far above any fixture, catalog chunk or recording the project reads.
inline constexpr size_t kDefaultMaxFileBytes = size_t{4} << 30;

// The whole content of a regular file (or a pipe or device read to its end).
StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes = kDefaultMaxFileBytes);

// Writes `content` to `path`, replacing it; the write goes to a temporary file beside it that is
// renamed into place, so a reader never sees half a file.
Status WriteFileAtomically(const std::string& path, std::string_view content);

}  // namespace azure_pricing::base

#endif  // REF_BASE_FILES_H_
