// A work directory that goes away with everything in it when its owner does, however a run ends.
#ifndef REF_BASE_SCOPED_TEMP_DIR_H_
#define REF_BASE_SCOPED_TEMP_DIR_H_

#include <string>
#include <string_view>

#include "ref/status/status.h"

namespace azure_pricing::base {

// A program error: no directory could be made under TMPDIR (or /tmp).
inline constexpr Reason kTempDirFailed = "temp_dir_failed";

class ScopedTempDir {
 public:
  // "<TMPDIR or /tmp>/<prefix>-XXXXXX", made now, private to this user (0700).
  static StatusOr<ScopedTempDir> Make(std::string_view prefix);

  ScopedTempDir() = default;  // owns nothing: a member to be assigned once made
  ScopedTempDir(ScopedTempDir&& other) noexcept;
  ScopedTempDir& operator=(ScopedTempDir&& other) noexcept;
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;
  ~ScopedTempDir();  // removes the directory and everything in it; errors are ignored

  const std::string& path() const { return path_; }  // empty when it owns nothing

 private:
  explicit ScopedTempDir(std::string path) : path_(std::move(path)) {}
  void Remove();

  std::string path_;
};

}  // namespace azure_pricing::base

#endif  // REF_BASE_SCOPED_TEMP_DIR_H_
