#include "ref/base/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace azure_pricing::base {
namespace {

Status Fail(const char* reason, const char* message) {
  return Status(Outcome::kFailed, reason, message);
}

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

}  // namespace azure_pricing::base
