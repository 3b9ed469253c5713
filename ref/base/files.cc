#include "ref/base/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "ref/base/paths.h"

namespace azure_pricing::base {
namespace {

Status Fail(Reason reason, const char* message) { return ProgramError(reason, message); }

// Closes the descriptor on every path.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) {
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Fail(kFileNotFound, "no such file");
    return Fail(kFileUnreadable, "the file cannot be opened for reading");
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Fail(kFileUnreadable, "the file cannot be examined");
  if (S_ISDIR(st.st_mode)) return Fail(kFileIsDirectory, "it is a directory, not a file");
  std::string out;
  if (S_ISREG(st.st_mode)) out.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return Fail(kFileUnreadable, "reading the file failed");
    }
    if (out.size() + static_cast<size_t>(n) > max_bytes) {
      return Fail(kFileTooLarge, "the file is larger than the reader accepts");
    }
    out.append(buffer, static_cast<size_t>(n));
  }
  return out;
}

Status WriteFileAtomically(const std::string& path, std::string_view content) {
  const std::string temporary = path + ".partial." + std::to_string(::getpid());
  {
    const Fd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) return Fail(kFileNotWritten, "the file cannot be created");
    size_t done = 0;
    while (done < content.size()) {
      const ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::unlink(temporary.c_str());
        return Fail(kFileNotWritten, "writing the file failed");
      }
      done += static_cast<size_t>(n);
    }
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    return Fail(kFileNotWritten, "the file cannot be moved into place");
  }
  return OkStatus();
}

namespace {

// The directory a path would be created in ("." for a bare name).
// "out/" names the directory out, as mkdir reads it: trailing slashes are not a level.
std::string ParentOf(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

Status CheckParentWritable(const std::string& path) {
  struct stat st {};
  const std::string parent = ParentOf(path);
  if (::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Fail(kFileNoDirectory, "the directory it would go in does not exist");
  }
  if (::access(parent.c_str(), W_OK | X_OK) != 0) {
    return Fail(kFileNotWritten, "the directory it would go in is not writable");
  }
  return OkStatus();
}

}  // namespace

Status CheckReadableFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Fail(kFileNotFound, "no such file");
    return Fail(kFileUnreadable, "the file cannot be examined");
  }
  if (S_ISDIR(st.st_mode)) return Fail(kFileIsDirectory, "it is a directory, not a file");
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return Fail(kFileUnreadable, "the file cannot be opened for reading");
  return OkStatus();
}

Status CheckWritableFile(const std::string& path) {
  struct stat st {};
  if (path.empty()) return Fail(kFileNotFound, "the path is empty");
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Fail(kFileIsDirectory, "it is a directory, not a file");
    // The write replaces the file by renaming a new one over it: a FIFO's reader or a device
    // would get nothing and lose the node.
    if (!S_ISREG(st.st_mode)) return Fail(kFileNotRegular, "it is not a regular file");
  }
  return CheckParentWritable(path);
}

Status CheckNewDirectory(const std::string& path) {
  struct stat st {};
  if (path.empty()) return Fail(kFileNotFound, "the path is empty");
  if (::lstat(path.c_str(), &st) == 0) return Fail(kFileExists, "it exists already");
  return CheckParentWritable(path);
}

Status CheckExistingDirectory(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Fail(kFileNotFound, "no such directory");
  if (!S_ISDIR(st.st_mode)) return Fail(kFileNotDirectory, "it is not a directory");
  return OkStatus();
}

Status CheckExecutableFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Fail(kFileNotFound, "no such file");
  if (S_ISDIR(st.st_mode)) return Fail(kFileIsDirectory, "it is a directory, not a file");
  if (::access(path.c_str(), X_OK) != 0) {
    return Fail(kFileNotExecutable, "it is not executable");
  }
  return OkStatus();
}

std::string PathProblem(std::string_view flag, std::string_view path, const Status& status) {
  return std::string(flag) + " " + std::string(path) + ": " + status.message();
}

std::string FirstPathProblem(std::initializer_list<FlagPath> paths) {
  for (const FlagPath& p : paths) {
    if (!p.path) continue;
    if (const Status s = p.check(CallerPath(*p.path)); !s.ok()) {
      return PathProblem(p.flag, *p.path, s);
    }
  }
  return "";
}

}  // namespace azure_pricing::base
