// The bubblewrap command line of one exec, as a pure function of the image, the backend's
// state directory and the request, so what the sandbox gets is testable without running it.
#ifndef REF_SANDBOX_BWRAP_COMMAND_LINE_H_
#define REF_SANDBOX_BWRAP_COMMAND_LINE_H_

#include <string>
#include <vector>

#include "ref/sandbox/backend.h"

namespace azure_pricing::sandbox::bwrap {

// Where things are inside every sandbox.
inline constexpr char kInitPath[] = "/usr/local/libexec/azure-pricing/sandbox_init";
inline constexpr char kProbePath[] = "/usr/local/libexec/azure-pricing/sandbox_probe";
// A real CLI's .NET single-file bundle, and the directory its native libraries were unpacked
// into when the image was built (/usr/local/bin/azmcp points the bundle there).
inline constexpr char kBundlePath[] = "/usr/local/lib/azmcp/azmcp";
inline constexpr char kBundleExtractDir[] = "/usr/local/lib/azmcp/extract";
inline constexpr char kRunDir[] = "/run/azure-pricing";
inline constexpr char kEgressSocketInside[] = "/run/azure-pricing/egress.sock";
inline constexpr char kEgressCaInside[] = "/run/azure-pricing/egress-ca.pem";
inline constexpr int kForwarderPort = 3128;
// Without HOME in the request, programs start here.
inline constexpr char kDefaultWorkdir[] = "/tmp";
// Where the host_root_visible weakening shows the host's whole root, read-only.
inline constexpr char kHostRootInside[] = "/tmp/.host-root";
// sandbox_init's flag for the signal_exit_raw weakening.
inline constexpr char kSignalExitRawFlag[] = "--signal-exit-raw";

// Reasons (Outcome::kRefused) a request cannot be run as given.
inline constexpr Reason kEgressVariableInEnv = "egress_variable_in_env";
inline constexpr Reason kMalformedEnv = "malformed_env";
inline constexpr Reason kUnusableHome = "unusable_home";
inline constexpr Reason kArgvContainsNul = "argv_contains_nul";

// The unprivileged user every program runs as (nobody), whoever runs the backend.
inline constexpr char kSandboxUid[] = "65534";

// Ways to get isolation wrong, one flag each; all false except in the conformance suite's
// mutants.
struct IsolationWeakenings {
  bool share_network = false;          // keep the host's network namespace
  bool keep_privileges = false;        // keep the caller's uid and capabilities inside
  bool no_pid_namespace = false;       // share the host's PIDs; nothing dies with the sandbox
  std::string shared_tmp;              // a host directory bound at /tmp for every call
  std::vector<std::string> extra_env;  // NAME=value added beyond the egress variables
  bool shared_ipc = false;             // keep the host's IPC namespace (SysV IPC, POSIX queues)
  // No --clearenv: bubblewrap passes its own environment (PATH included) to the program.
  bool no_clearenv = false;
  bool host_root_visible = false;  // the host's / bound read-only at kHostRootInside
  // sandbox_init reports a program killed by a signal as exit -1 (255), not 128+N.
  bool signal_exit_raw = false;
};

struct CommandLineInputs {
  std::string bwrap_path;
  std::string image_dir;  // holds usr/local and etc
  // Closed egress (false): no socket, CA, egress variables or forwarder, so with nothing but
  // loopback inside, nothing is reachable.
  bool egress = true;
  std::string egress_socket;   // the proxy's Unix socket on the host
  std::string egress_ca_file;  // its CA, PEM, on the host
  // The sandbox's own host directories, bound read-write at /tmp and at a HOME outside /tmp,
  // so that what one exec writes the next one in the same sandbox sees. Empty: a fresh tmpfs.
  std::string tmp_dir;
  std::string home_dir;
  uint64_t tmpfs_bytes = 0;  // size of each fresh tmpfs; 0 leaves the kernel's default
  IsolationWeakenings weakenings;
};

StatusOr<std::vector<std::string>> BwrapCommandLine(const CommandLineInputs& inputs,
                                                    const ExecRequest& request);

}  // namespace azure_pricing::sandbox::bwrap

#endif  // REF_SANDBOX_BWRAP_COMMAND_LINE_H_
