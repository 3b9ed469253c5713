// The IPC subcommands: can processes in different sandboxes (or a sandbox and the host) meet
// through System V IPC or POSIX message queues? One probe makes the objects, another looks for
// them by the same key and name; a backend that isolates IPC shows the second nothing.
//   ipc-create KEY NAME  a System V shared memory segment, message queue and semaphore set with
//                        key KEY, and the POSIX message queue /NAME, all mode 0666, left in place
//                        on exit (their lasting is the point). Each member is true when the
//                        object exists after the call: made now, or already there.
//   ipc-look KEY NAME    the same members, true when such an object exists (visible, even if
//                        not ours to open), and `mqueue_fs`: whether /dev/mqueue is a directory.
//                        Never makes anything.
// `error` lists what failed other than plain absence, as "call: strerror text; ...".
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>

#include <cstring>
#include <string>

#include "conformance/backend/probe/probe.h"

namespace azure_pricing::conformance::backend::probe {
namespace {

struct IpcNames {
  key_t key;
  std::string queue;  // "/NAME", as mq_open takes it
};

std::optional<IpcNames> ParseIpcArgs(const Args& args) {
  const std::optional<long long> key = ParseInteger(args[0], 1, 2147483647);
  const std::string& name = args[1];
  if (!key || name.empty() || name.size() > 200 ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789._-") != std::string::npos) {
    return std::nullopt;
  }
  return IpcNames{static_cast<key_t>(*key), "/" + name};
}

void AddError(std::string& errors, const char* call, int error) {
  if (!errors.empty()) errors += "; ";
  errors += std::string(call) + ": " + std::strerror(error);
}

// A create call's answer (an id or -1 with errno): true when the object is there.
bool Made(int rc, const char* call, std::string& errors) {
  if (rc >= 0) return true;
  AddError(errors, call, errno);
  return false;
}

// A lookup's answer: EACCES still says the object exists, only that it is not ours to open.
bool Found(int rc, const char* call, std::string& errors) {
  if (rc >= 0 || errno == EACCES) return true;
  if (errno != ENOENT) AddError(errors, call, errno);
  return false;
}

}  // namespace

std::optional<int> IpcCreateCommand(const Args& args) {
  const std::optional<IpcNames> names = ParseIpcArgs(args);
  if (!names) return std::nullopt;
  std::string errors;
  const bool shm = Made(shmget(names->key, 4096, IPC_CREAT | 0666), "shmget", errors);
  const bool msg = Made(msgget(names->key, IPC_CREAT | 0666), "msgget", errors);
  const bool sem = Made(semget(names->key, 1, IPC_CREAT | 0666), "semget", errors);
  // mq_open applies the umask, which would take away the access another user's probe needs;
  // the System V calls do not.
  const mode_t umask_was = umask(0);
  const mqd_t queue = mq_open(names->queue.c_str(), O_CREAT | O_RDWR, 0666, nullptr);
  const int queue_error = errno;
  umask(umask_was);
  if (queue == static_cast<mqd_t>(-1)) {
    AddError(errors, "mq_open", queue_error);
  } else {
    mq_close(queue);  // the name keeps the queue until mq_unlink
  }
  PrintJson({{"sysv_shm", shm},
             {"sysv_msg", msg},
             {"sysv_sem", sem},
             {"posix_mq", queue != static_cast<mqd_t>(-1)},
             {"error", errors}});
  return 0;
}

std::optional<int> IpcLookCommand(const Args& args) {
  const std::optional<IpcNames> names = ParseIpcArgs(args);
  if (!names) return std::nullopt;
  std::string errors;
  const bool shm = Found(shmget(names->key, 0, 0), "shmget", errors);
  const bool msg = Found(msgget(names->key, 0), "msgget", errors);
  const bool sem = Found(semget(names->key, 0, 0), "semget", errors);
  const mqd_t queue = mq_open(names->queue.c_str(), O_RDONLY);
  const bool posix_mq = Found(queue == static_cast<mqd_t>(-1) ? -1 : 0, "mq_open", errors);
  if (queue != static_cast<mqd_t>(-1)) mq_close(queue);
  struct stat info;
  const bool mqueue_fs = stat("/dev/mqueue", &info) == 0 && S_ISDIR(info.st_mode);
  PrintJson({{"sysv_shm", shm},
             {"sysv_msg", msg},
             {"sysv_sem", sem},
             {"posix_mq", posix_mq},
             {"mqueue_fs", mqueue_fs},
             {"error", errors}});
  return 0;
}

}  // namespace azure_pricing::conformance::backend::probe
