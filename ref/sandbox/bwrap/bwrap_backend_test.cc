// Real sandboxes: bubblewrap, the image assembled from the fake CLI and sandbox_init, the egress
// proxy on its Unix socket, the fake price API behind it. Probes here use the host's /bin/sh
// (the base layer); the backend conformance suite runs the full probe set.
#include "ref/sandbox/bwrap/bwrap_backend.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "conformance/citations/cites.h"
#include "fakes/prices_server/sample_rows.h"
#include "fakes/testing/server_process.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/sandbox/bwrap/image.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAre;


std::string Runfile(const std::string& path) {
  return std::string(std::getenv("TEST_SRCDIR")) + "/" + std::getenv("TEST_WORKSPACE") + "/" +
         path;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Entries of a directory whose name starts with `prefix`, or -1 when it cannot be read.
int CountEntries(const std::string& dir, const std::string& prefix = "") {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return -1;
  int n = 0;
  while (dirent* e = readdir(d)) n += std::string(e->d_name).rfind(prefix, 0) == 0 ? 1 : 0;
  closedir(d);
  return n;
}

// Processes whose command line holds `marker`, anywhere on the host.
int ProcessesMarked(const std::string& marker) {
  DIR* d = opendir("/proc");
  int n = 0;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::string cmd = ReadFile(std::string("/proc/") + e->d_name + "/cmdline");
    for (char& c : cmd) c = c == '\0' ? ' ' : c;
    if (cmd.find(marker) != std::string::npos) ++n;
  }
  closedir(d);
  return n;
}

class BwrapBackendTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // A private, short TMPDIR: the backend's state directory (and its Unix socket) goes there,
    // and no other test's backend can appear in or vanish from it.
    std::string pattern = "/tmp/apbt-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    tmpdir_ = new std::string(pattern);
    ASSERT_EQ(setenv("TMPDIR", tmpdir_->c_str(), 1), 0);
    image_ = new std::string(std::string(std::getenv("TEST_TMPDIR")) + "/image");
    const Status made = AssembleImage({.azmcp = Runfile("fakes/azmcp/azmcp"),
                                       .dotnet_bundle = false,
                                       .sandbox_init = Runfile("ref/sandbox/bwrap/sandbox_init"),
                                       .provenance = "//fakes/azmcp (test)"},
                                      *image_);
    ASSERT_THAT(made, IsOk());
  }
  static void TearDownTestSuite() {
    if (tmpdir_ != nullptr) {
      EXPECT_EQ(rmdir(tmpdir_->c_str()), 0) << "a state directory was left";
    }
  }
  void SetUp() override {
    StatusOr<std::unique_ptr<BwrapBackend>> made = BwrapBackend::Create(
        {.image_dir = *image_,
         .upstream = EgressUpstream{"127.0.0.1", upstream_.port(), ReadFile(upstream_.ca_file())},
         .egress_log = [this](const std::string& line) { egress_log_ += line + "\n"; }});
    ASSERT_THAT(made.status(), IsOk());
    backend_ = std::move(*made);
  }

  StatusOr<ExecResult> Run(std::vector<std::string> argv, std::vector<std::string> env = {},
                           int64_t timeout_seconds = 30) {
    StatusOr<std::unique_ptr<Sandbox>> sandbox = backend_->Acquire(Spec(), {"a", "s", "c"});
    if (!sandbox.ok()) return sandbox.status();
    StatusOr<ExecResult> result = (*sandbox)->bounded_exec()->ExecBounded(
        {.argv = std::move(argv), .env = std::move(env), .timeout_seconds = timeout_seconds,
         .max_output_bytes = 1 << 20});
    if (Status disposed = backend_->Dispose(std::move(*sandbox)); !disposed.ok()) return disposed;
    return result;
  }

  static std::string* image_;
  static std::string* tmpdir_;
  fakes::test_support::PricesServerProcess upstream_{fakes::prices::kD4sV5WestEuropeRow};
  std::unique_ptr<BwrapBackend> backend_;
  std::string egress_log_;
};

std::string* BwrapBackendTest::image_ = nullptr;
std::string* BwrapBackendTest::tmpdir_ = nullptr;

TEST_F(BwrapBackendTest, RunsAProgramWithItsArgvEnvironmentAndExitCode) {
  const StatusOr<ExecResult> r =
      Run({"/bin/sh", "-c", "printf '%s|' \"$@\"; exit 3", "sh", "a b", "é\n\"q\""},
          {"HOME=/tmp/azmcp-home"});
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->stdout_bytes, "a b|é\n\"q\"|");
  EXPECT_EQ(r->exit_code, 3);
}

TEST_F(BwrapBackendTest, TheEnvironmentIsTheRequestsPlusTheEgressVariables) {
  const StatusOr<ExecResult> r = Run({"/usr/bin/env"}, {"HOME=/tmp/h", "X=1"});
  ASSERT_THAT(r.status(), IsOk());
  std::vector<std::string> lines;
  std::stringstream s(r->stdout_bytes);
  for (std::string line; std::getline(s, line);) lines.push_back(line);
  EXPECT_THAT(lines, UnorderedElementsAre("HOME=/tmp/h", "X=1",
                                          "HTTPS_PROXY=http://127.0.0.1:3128",
                                          std::string("SSL_CERT_FILE=") + kEgressCaInside));
}

TEST_F(BwrapBackendTest, APwdInTheRequestIsKeptAndNoneIsAddedOtherwise) {
  // A shell would reset PWD to the real directory; env shows what the program was given.
  const StatusOr<ExecResult> r = Run({"/usr/bin/env"}, {"PWD=/elsewhere"});
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_THAT(r->stdout_bytes, HasSubstr("PWD=/elsewhere\n"));
}

TEST_F(BwrapBackendTest, HomeIsWritableAndTheWorkingDirectoryTheRootIsReadOnly) {
  const StatusOr<ExecResult> r =
      Run({"/bin/sh", "-c", "pwd; echo x > f && cat f; touch /usr/local/x 2>/dev/null || echo ro; "
                            "touch /x 2>/dev/null || echo ro"},
          {"HOME=/tmp/azmcp-home"});
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->stdout_bytes, "/tmp/azmcp-home\nx\nro\nro\n");
}

TEST_F(BwrapBackendTest, TheProgramRunsAsNobodyWithoutCapabilitiesOrAnIgnoredSigpipe) {
  // Whoever runs the backend (root here): no capability survives, so no remount either.
  const StatusOr<ExecResult> r = Run(
      {"/bin/sh", "-c",
       "id -u; grep -E '^(CapEff|CapBnd|SigBlk):' /proc/self/status | tr -d '\\t'; "
       "mount -o remount,rw / 2>/dev/null && echo remounted || echo denied; "
       "sed -n 's/^SigIgn:\\t//p' /proc/self/status"});
  ASSERT_THAT(r.status(), IsOk());
  const size_t last = r->stdout_bytes.rfind('\n', r->stdout_bytes.size() - 2) + 1;
  EXPECT_EQ(r->stdout_bytes.substr(0, last),
            "65534\nSigBlk:0000000000000000\nCapEff:0000000000000000\n"
            "CapBnd:0000000000000000\ndenied\n");
  // The egress proxy ignores SIGPIPE in the backend's process; the program must not inherit it.
  const uint64_t ignored = std::stoull(r->stdout_bytes.substr(last), nullptr, 16);
  EXPECT_EQ((ignored >> (SIGPIPE - 1)) & 1u, 0u);
}

TEST_F(BwrapBackendTest, TheSandboxSeesNoHostNetworkFilesOrProcesses) {
  const StatusOr<ExecResult> r = Run(
      {"/bin/sh", "-c",
       "cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d ' '; ls /root /home 2>&1 | wc -l; "
       "ls /proc | grep -c '^[0-9]'"});
  ASSERT_THAT(r.status(), IsOk());
  // Only loopback; neither /root nor /home exists (two error lines); a handful of our own PIDs.
  std::stringstream s(r->stdout_bytes);
  std::string dev, missing, procs;
  std::getline(s, dev);
  std::getline(s, missing);
  std::getline(s, procs);
  EXPECT_EQ(dev, "lo");
  EXPECT_EQ(missing, "2");
  EXPECT_LE(std::stoi(procs), 5);
}

TEST_F(BwrapBackendTest, ATimeoutKillsEverythingInTheSandboxIncludingDetachedProcesses) {
  CITES("BOUND-004", "INTRO-007");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(Run({"/bin/sh", "-c", "setsid sleep 3011 & sleep 3012"}, {}, 1).status(),
              StatusIs(Outcome::kFailed, kExecTimeoutReason));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(ProcessesMarked("sleep 3011"), 0);
  EXPECT_EQ(ProcessesMarked("sleep 3012"), 0);
}

TEST_F(BwrapBackendTest, ADetachedProcessLeftBehindDoesNotKeepTheCallAliveOrOutliveIt) {
  const auto start = std::chrono::steady_clock::now();
  const StatusOr<ExecResult> r = Run({"/bin/sh", "-c", "setsid sleep 3013 & echo left"});
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->stdout_bytes, "left\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(ProcessesMarked("sleep 3013"), 0);
}

TEST_F(BwrapBackendTest, TheFakeCliCompletesALookupThroughTheProxyAndTheForwarder) {
  CITES("HOST-012", "HOST-013");
  const StatusOr<ExecResult> r = Run(
      {"azmcp", "pricing", "get", "--sku", "Standard_D4s_v5", "--region", "westeurope"},
      {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp/azmcp-home"});
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->exit_code, 0) << r->stderr_bytes;
  EXPECT_THAT(r->stdout_bytes, HasSubstr("\"armSkuName\": \"Standard_D4s_v5\""));
  EXPECT_THAT(egress_log_, HasSubstr("decision=request_forwarded"));
}

TEST_F(BwrapBackendTest, DirectConnectionsFailEvenToTheHostsLoopback) {
  const std::string script = "exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(upstream_.port()) +
                             " && echo connected || echo refused";
  const StatusOr<ExecResult> r = Run({"/bin/bash", "-c", script});
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_THAT(r->stdout_bytes, HasSubstr("refused"));
  EXPECT_THAT(r->stdout_bytes, Not(HasSubstr("connected")));
}

TEST_F(BwrapBackendTest, TwoHundredCallsLeaveNoProcessMountDescriptorOrDirectoryBehind) {
  // Other tests on this host run bubblewrap sandboxes at the same time: count only what carries
  // this test's marker, in this suite's private TMPDIR.
  const std::string marker = "leak-check-" + std::to_string(getpid());
  const int fds = CountEntries("/proc/self/fd");
  const std::string mounts = ReadFile("/proc/self/mountinfo");
  const int dirs = CountEntries(*tmpdir_, "azure-pricing-bwrap-");
  ASSERT_EQ(dirs, 1);  // this fixture's backend
  for (int i = 0; i < 200; ++i) {
    const StatusOr<ExecResult> r = Run({"/bin/true", marker});
    ASSERT_THAT(r.status(), IsOk());
    ASSERT_EQ(r->exit_code, 0);
  }
  EXPECT_EQ(CountEntries("/proc/self/fd"), fds);
  EXPECT_EQ(ReadFile("/proc/self/mountinfo"), mounts);
  EXPECT_EQ(CountEntries(*tmpdir_, "azure-pricing-bwrap-"), dirs);
  EXPECT_EQ(ProcessesMarked(marker), 0);
  EXPECT_EQ(backend_->live_sandboxes(), 0);
}

TEST_F(BwrapBackendTest, RefusesWhatTheBackendCannotRunSafely) {
  EXPECT_THAT(Run({"/bin/true"}, {"HTTPS_PROXY=http://elsewhere"}).status(),
              StatusIs(Outcome::kRefused, kEgressVariableInEnv));
  EXPECT_THAT(Run({"/bin/true"}, {"HOME=/usr/local"}).status(),
              StatusIs(Outcome::kRefused, kUnusableHome));
}

TEST_F(BwrapBackendTest, EgressIsRedirectedOnlyWhileNoSandboxIsLive) {
  const EgressUpstream elsewhere{"127.0.0.1", upstream_.port() + 1, "not a CA"};
  StatusOr<std::unique_ptr<Sandbox>> live = backend_->Acquire(Spec(), {"a", "s", "c"});
  ASSERT_THAT(live.status(), IsOk());
  EXPECT_THAT(backend_->RedirectEgress(elsewhere),
              StatusIs(Outcome::kRefused, kEgressRedirectBusy));
  ASSERT_THAT(backend_->Dispose(std::move(*live)), IsOk());
  // An upstream the proxy cannot use is refused and egress stays as it was.
  EXPECT_THAT(backend_->RedirectEgress({"127.0.0.1", upstream_.port(), ""}),
              StatusIs(Outcome::kFailed, kEgressProxyFailed));
  const StatusOr<ExecResult> r = Run(
      {"azmcp", "pricing", "get", "--sku", "Standard_D4s_v5", "--region", "westeurope"},
      {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp/azmcp-home"});
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->exit_code, 0) << r->stderr_bytes;
  // The same upstream again is no change, live sandboxes or not.
  EXPECT_THAT(backend_->RedirectEgress(
                  {"127.0.0.1", upstream_.port(), ReadFile(upstream_.ca_file())}),
              IsOk());
}

TEST(BwrapBackendCreateTest, NamesWhatIsMissing) {
  EXPECT_THAT(BwrapBackend::Create({.bwrap_path = "/proc/nonexistent/bwrap", .image_dir = "/"}).status(),
              StatusIs(Outcome::kFailed, kBwrapNotFound));
  EXPECT_THAT(BwrapBackend::Create({.image_dir = "/proc/nonexistent"}).status(),
              StatusIs(Outcome::kFailed, kImageIncomplete));
}

}  // namespace
}  // namespace azure_pricing::sandbox::bwrap
