#include "ref/sandbox/bwrap/state_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "ref/status/status_macros.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

// Owner read, write and search: what walking and emptying a directory needs.
constexpr mode_t kOwnerAll = S_IRWXU;

Status TreeFailed(const char* message) {
  return Status(Outcome::kFailed, kStateTreeFailed, message);
}

// The names in the directory open at `fd`, read before any is touched: removing entries while
// reading leaves it unspecified which are returned.
std::vector<std::string> Names(int fd) {
  std::vector<std::string> names;
  const int own = dup(fd);
  DIR* dir = own < 0 ? nullptr : fdopendir(own);
  if (dir == nullptr) {
    if (own >= 0) close(own);
    return names;
  }
  while (const dirent* e = readdir(dir)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(dir);
  return names;
}

// The directory `name` in `parent`, opened without following a link; when its mode shuts us
// out, it is opened to us first (`*restore` then holds the mode to put back, else 0).
int OpenDirAt(int parent, const char* name, mode_t* restore) {
  constexpr int kFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  *restore = 0;
  int fd = openat(parent, name, kFlags);
  if (fd >= 0 || errno != EACCES) return fd;
  struct stat st {};
  if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) return -1;
  if (fchmodat(parent, name, (st.st_mode & 07777) | kOwnerAll, 0) != 0) return -1;
  *restore = (st.st_mode & 07777) | S_IFDIR;
  return openat(parent, name, kFlags);
}

// Empties the directory open at `fd`; true when nothing is left in it.
bool EmptyAt(int fd) {
  fchmod(fd, kOwnerAll);  // entries of a read-only directory cannot be unlinked
  bool empty = true;
  for (const std::string& name : Names(fd)) {
    struct stat st {};
    if (fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone already
    if (!S_ISDIR(st.st_mode)) {
      empty = unlinkat(fd, name.c_str(), 0) == 0 && empty;
      continue;
    }
    mode_t ignored = 0;
    const int child = OpenDirAt(fd, name.c_str(), &ignored);
    if (child >= 0) {
      EmptyAt(child);
      close(child);
    }
    empty = unlinkat(fd, name.c_str(), AT_REMOVEDIR) == 0 && empty;
  }
  return empty;
}

uint64_t BytesAt(int fd) {
  uint64_t bytes = 0;
  for (const std::string& name : Names(fd)) {
    struct stat st {};
    if (fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    bytes += static_cast<uint64_t>(st.st_blocks) * 512;
    if (!S_ISDIR(st.st_mode)) continue;
    mode_t restore = 0;
    const int child = OpenDirAt(fd, name.c_str(), &restore);
    if (child < 0) continue;
    bytes += BytesAt(child);
    if (restore != 0) fchmod(child, restore & 07777);
    close(child);
  }
  return bytes;
}

}  // namespace

Status MakeStateTree(const std::string& path) {
  for (const std::string& dir : {path, path + "/tmp", path + "/home"}) {
    if (mkdir(dir.c_str(), kOwnerAll) != 0) {
      return TreeFailed("a sandbox's state directory could not be created");
    }
  }
  return OkStatus();
}

Status EmptyTree(const std::string& path) {
  mode_t ignored = 0;
  const int fd = OpenDirAt(AT_FDCWD, path.c_str(), &ignored);
  if (fd < 0) return TreeFailed("a sandbox's state directory could not be opened");
  const bool empty = EmptyAt(fd);
  close(fd);
  return empty ? OkStatus() : TreeFailed("a sandbox's state directory could not be emptied");
}

Status RemoveTree(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0 && errno == ENOENT) return OkStatus();
  if (!S_ISDIR(st.st_mode)) {
    return unlink(path.c_str()) == 0 ? OkStatus()
                                     : TreeFailed("a sandbox's state could not be removed");
  }
  RETURN_IF_ERROR(EmptyTree(path));
  return rmdir(path.c_str()) == 0 ? OkStatus()
                                  : TreeFailed("a sandbox's state directory could not be removed");
}

uint64_t TreeBytes(const std::string& path) {
  mode_t restore = 0;
  const int fd = OpenDirAt(AT_FDCWD, path.c_str(), &restore);
  if (fd < 0) return 0;
  const uint64_t bytes = BytesAt(fd);
  if (restore != 0) fchmod(fd, restore & 07777);
  close(fd);
  return bytes;
}

}  // namespace azure_pricing::sandbox::bwrap
