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
#include <functional>
#include <sstream>
#include <thread>

#include "conformance/citations/cites.h"
#include "fakes/prices_server/sample_rows.h"
#include "fakes/testing/server_process.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/runfiles.h"
#include "ref/base/test_tmpdir.h"
#include "ref/sandbox/bwrap/image.h"
#include "ref/sandbox/declaration_coverage.h"
#include "ref/status/status_macros.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::sandbox::bwrap {

// bwrap_backend.h's testing peer, defined here for this binary (the conformance mutants define
// theirs in another): it reaches the weakenings, so each can be shown to weaken what it names.
class BackendMutator {
 public:
  static void Weaken(BwrapBackend& b, const std::function<void(BwrapBackend::Weakenings&)>& f) {
    f(b.weakenings_);
  }
};

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAre;


using base::Runfile;

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

// The spec the pricing tool asks for: allowlist egress to the price API, GET only.
Spec Allowlist() {
  Spec spec;
  spec.required = {Capability::kExec};
  spec.egress = Egress::kAllowlist;
  spec.egress_allow = {{kEgressAllowedHost, std::set<std::string>{"GET"}}};
  spec.isolation_scope = IsolationScope::kCall;
  return spec;
}

Spec Closed() {
  Spec spec;
  spec.required = {Capability::kExec};
  return spec;
}

ExecRequest Shell(const std::string& script, std::vector<std::string> env = {},
                  int64_t timeout_seconds = 30) {
  return {.argv = {"/bin/sh", "-c", script},
          .env = std::move(env),
          .timeout_seconds = timeout_seconds,
          .max_output_bytes = 1 << 20};
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
    image_ = new std::string(base::TestTmpDir() + "/image");
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

  // One exec in a sandbox of its own, acquired for `spec` and disposed after.
  StatusOr<ExecResult> Run(std::vector<std::string> argv, std::vector<std::string> env = {},
                           int64_t timeout_seconds = 30, const Spec& spec = Allowlist()) {
    ASSIGN_OR_RETURN(std::unique_ptr<Sandbox> sandbox, backend_->Acquire(spec, {"a", "s", "c"}));
    StatusOr<ExecResult> result =
        sandbox->bounded_exec()->ExecBounded({.argv = std::move(argv),
                                              .env = std::move(env),
                                              .timeout_seconds = timeout_seconds,
                                              .max_output_bytes = 1 << 20});
    RETURN_IF_ERROR(backend_->Dispose(std::move(sandbox)));
    return result;
  }

  StatusOr<std::unique_ptr<Sandbox>> Acquire(const Spec& spec = Allowlist()) {
    return backend_->Acquire(spec, {"a", "s", "c"});
  }

  // Replaces this test's backend with one made from `options` (image and upstream filled in).
  void Recreate(BwrapOptions options) {
    options.image_dir = *image_;
    options.upstream = EgressUpstream{"127.0.0.1", upstream_.port(), ReadFile(upstream_.ca_file())};
    options.egress_log = [](const std::string&) {};
    backend_.reset();
    StatusOr<std::unique_ptr<BwrapBackend>> made = BwrapBackend::Create(std::move(options));
    ASSERT_THAT(made.status(), IsOk());
    backend_ = std::move(*made);
  }

  // A fresh backend with one weakening (as a mutant applies it, after creation).
  template <typename Weaken>
  void Weakened(Weaken weaken) {
    Recreate({});
    BackendMutator::Weaken(*backend_, weaken);
  }

  // The sandboxes' state directories on the host, one per live sandbox.
  int StateDirectories() { return CountEntries(backend_->state_dir() + "/sandboxes", "") - 2; }

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

StatusOr<ExecResult> ExecIn(Sandbox& sandbox, const ExecRequest& request) {
  return sandbox.bounded_exec()->ExecBounded(request);
}

// What one exec writes in /tmp and HOME the next exec in the same sandbox reads; a new sandbox
// starts empty. HOME under /tmp lives in /tmp's directory, HOME elsewhere in its own.
TEST_F(BwrapBackendTest, ASecondExecSeesWhatTheFirstWroteAndANewSandboxDoesNot) {
  StatusOr<std::unique_ptr<Sandbox>> box = Acquire();
  ASSERT_THAT(box.status(), IsOk());
  for (const std::string home : {"/tmp/azmcp-home", "/home/sandbox"}) {
    SCOPED_TRACE(home);
    const std::vector<std::string> env = {"HOME=" + home};
    const StatusOr<ExecResult> wrote = ExecIn(**box, Shell("echo one > /tmp/f; echo two > g", env));
    ASSERT_THAT(wrote.status(), IsOk());
    ASSERT_EQ(wrote->exit_code, 0) << wrote->stderr_bytes;
    const StatusOr<ExecResult> read = ExecIn(**box, Shell("pwd; cat /tmp/f \"$HOME/g\"", env));
    ASSERT_THAT(read.status(), IsOk());
    EXPECT_EQ(read->stdout_bytes, home + "\none\ntwo\n");
  }
  const StatusOr<ExecResult> elsewhere =
      Run({"/bin/sh", "-c", "ls -A /tmp; ls -A /home/sandbox"}, {"HOME=/home/sandbox"});
  ASSERT_THAT(elsewhere.status(), IsOk());
  EXPECT_EQ(elsewhere->stdout_bytes, "");
  ASSERT_THAT(backend_->Dispose(std::move(*box)), IsOk());
}

TEST_F(BwrapBackendTest, TwoLiveSandboxesNeverShareTheirState) {
  StatusOr<std::unique_ptr<Sandbox>> a = Acquire();
  StatusOr<std::unique_ptr<Sandbox>> b = Acquire();
  ASSERT_THAT(a.status(), IsOk());
  ASSERT_THAT(b.status(), IsOk());
  EXPECT_EQ(StateDirectories(), 2);
  ASSERT_THAT(ExecIn(**a, Shell("echo a > /tmp/a")).status(), IsOk());
  ASSERT_THAT(ExecIn(**b, Shell("echo b > /tmp/b")).status(), IsOk());
  const StatusOr<ExecResult> in_a = ExecIn(**a, Shell("ls -A /tmp"));
  const StatusOr<ExecResult> in_b = ExecIn(**b, Shell("ls -A /tmp"));
  ASSERT_THAT(in_a.status(), IsOk());
  ASSERT_THAT(in_b.status(), IsOk());
  EXPECT_EQ(in_a->stdout_bytes, "a\n");
  EXPECT_EQ(in_b->stdout_bytes, "b\n");
  ASSERT_THAT(backend_->Dispose(std::move(*a)), IsOk());
  ASSERT_THAT(backend_->Dispose(std::move(*b)), IsOk());
}

TEST_F(BwrapBackendTest, DisposeRemovesTheStateEvenWhatTheProgramMadeReadOnly) {
  StatusOr<std::unique_ptr<Sandbox>> box = Acquire();
  ASSERT_THAT(box.status(), IsOk());
  const StatusOr<ExecResult> r = ExecIn(
      **box, Shell("mkdir -p d/e && echo x > d/e/f && chmod 0 d/e/f && chmod 555 d/e && "
                   "chmod 0 d && ln -s / root && chmod 555 . && echo done",
                   {"HOME=/home/sandbox"}));
  ASSERT_THAT(r.status(), IsOk());
  ASSERT_EQ(r->stdout_bytes, "done\n") << r->stderr_bytes;
  EXPECT_EQ(StateDirectories(), 1);
  ASSERT_THAT(backend_->Dispose(std::move(*box)), IsOk());
  EXPECT_EQ(StateDirectories(), 0);
}

TEST_F(BwrapBackendTest, TheBackendRemovesTheStateOfSandboxesStillLiveWhenItGoes) {
  StatusOr<std::unique_ptr<Sandbox>> box = Acquire();
  ASSERT_THAT(box.status(), IsOk());
  ASSERT_THAT(ExecIn(**box, Shell("echo x > /tmp/x")).status(), IsOk());
  const std::string state = backend_->state_dir();
  backend_.reset();
  EXPECT_EQ(CountEntries(state), -1);
  box->reset();
}

TEST_F(BwrapBackendTest, RefusesSpecsBeyondItsDeclarationAndCreatesNothing) {
  Spec windows = Allowlist();
  windows.os_family = OsFamily::kWindows;
  Spec vm = Allowlist();
  vm.min_isolation = Isolation::kVm;
  Spec snapshot = Allowlist();
  snapshot.required.insert(Capability::kSnapshot);
  Spec unrestricted = Closed();
  unrestricted.egress = Egress::kUnrestricted;
  Spec post = Allowlist();
  post.egress_allow = {{kEgressAllowedHost, std::set<std::string>{"GET", "POST"}}};
  Spec other_host = Allowlist();
  other_host.egress_allow = {{"management.azure.com", std::set<std::string>{"GET"}}};
  Spec reclaim = Allowlist();
  reclaim.cleanup = Cleanup::kReclaim;
  for (const Spec& spec : {windows, vm, snapshot, unrestricted, post, other_host, reclaim}) {
    EXPECT_THAT(Acquire(spec).status(), StatusIs(Outcome::kRefused, kSpecNotServed));
  }
  Spec no_rules = Allowlist();
  no_rules.egress_allow.clear();
  EXPECT_THAT(Acquire(no_rules).status(), StatusIs(Outcome::kRefused, kInvalidSpec));
  EXPECT_EQ(backend_->live_sandboxes(), 0);
  EXPECT_EQ(StateDirectories(), 0);
}

// Closed egress: no proxy socket or CA inside, no egress variables, and with only loopback
// nothing answers, neither the forwarder's port nor the host's price API.
TEST_F(BwrapBackendTest, AClosedSandboxGetsNoEgressAndReachesNothing) {
  const StatusOr<ExecResult> env = Run({"/usr/bin/env"}, {"HOME=/tmp/h", "X=1"}, 30, Closed());
  ASSERT_THAT(env.status(), IsOk());
  EXPECT_EQ(env->stdout_bytes, "HOME=/tmp/h\nX=1\n");
  const std::string script =
      "ls /run/azure-pricing 2>/dev/null || echo no-run; cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d ' ';"
      "for port in 3128 " + std::to_string(upstream_.port()) + "; do "
      "(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && echo connected || echo refused; done";
  const StatusOr<ExecResult> r = Run({"/bin/bash", "-c", script}, {}, 30, Closed());
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->stdout_bytes, "no-run\nlo\nrefused\nrefused\n");
}

TEST_F(BwrapBackendTest, ATimeoutOfZeroFailsAsATimeoutWithoutRunningAnything) {
  StatusOr<std::unique_ptr<Sandbox>> box = Acquire();
  ASSERT_THAT(box.status(), IsOk());
  EXPECT_THAT(ExecIn(**box, Shell("touch /tmp/ran", {}, 0)).status(),
              StatusIs(Outcome::kFailed, kExecTimeoutReason));
  const StatusOr<ExecResult> after = ExecIn(**box, Shell("ls -A /tmp"));
  ASSERT_THAT(after.status(), IsOk());
  EXPECT_EQ(after->stdout_bytes, "");
  ASSERT_THAT(backend_->Dispose(std::move(*box)), IsOk());
}

TEST_F(BwrapBackendTest, AProgramKilledBySignalNExitsWith128PlusN) {
  for (const auto& [signal, code] : {std::pair{"TERM", 143}, std::pair{"KILL", 137}}) {
    const StatusOr<ExecResult> r = Run({"/bin/sh", "-c", std::string("kill -") + signal + " $$"});
    ASSERT_THAT(r.status(), IsOk());
    EXPECT_EQ(r->exit_code, code) << signal;
  }
}

TEST_F(BwrapBackendTest, StateOverItsLimitFailsTheExecAndIsEmptied) {
  Recreate({.state_bytes = 1 << 20});
  StatusOr<std::unique_ptr<Sandbox>> box = Acquire();
  ASSERT_THAT(box.status(), IsOk());
  const std::vector<std::string> env = {"HOME=/home/sandbox"};
  EXPECT_THAT(ExecIn(**box, Shell("head -c 600000 /dev/urandom > /tmp/a; "
                                  "head -c 600000 /dev/urandom > b", env))
                  .status(),
              StatusIs(Outcome::kFailed, kStateLimit));
  const StatusOr<ExecResult> after =
      ExecIn(**box, Shell("ls -A /tmp; ls -A; head -c 600000 /dev/zero > c && echo kept", env));
  ASSERT_THAT(after.status(), IsOk());
  EXPECT_EQ(after->stdout_bytes, "kept\n");
  ASSERT_THAT(backend_->Dispose(std::move(*box)), IsOk());
}

// Each exists for a conformance mutant (conformance/backend/broken_backends) and must really weaken.
TEST_F(BwrapBackendTest, EachSandboxWeakeningChangesWhatItNames) {
  Weakened([](auto& w) { w.overclaim = true; });
  Spec windows = Allowlist();
  windows.os_family = OsFamily::kWindows;
  StatusOr<std::unique_ptr<Sandbox>> served = Acquire(windows);
  ASSERT_THAT(served.status(), IsOk());
  ASSERT_THAT(backend_->Dispose(std::move(*served)), IsOk());

  Weakened([](auto& w) { w.closed_egress_open = true; });
  const StatusOr<ExecResult> env = Run({"/usr/bin/env"}, {}, 30, Closed());
  ASSERT_THAT(env.status(), IsOk());
  EXPECT_THAT(env->stdout_bytes, HasSubstr("HTTPS_PROXY="));

  Weakened([](auto& w) { w.conversation_scope_refused = true; });
  EXPECT_THAT(Acquire(Closed()).status(), StatusIs(Outcome::kRefused, kSpecNotServed));

  Weakened([](auto& w) { w.timeout_zero_unbounded = true; });
  const StatusOr<ExecResult> ran = Run({"/bin/sh", "-c", "echo ran"}, {}, 0);
  ASSERT_THAT(ran.status(), IsOk());
  EXPECT_EQ(ran->stdout_bytes, "ran\n");

  Weakened([](auto& w) { w.isolation.signal_exit_raw = true; });
  const StatusOr<ExecResult> killed = Run({"/bin/sh", "-c", "kill -KILL $$"});
  ASSERT_THAT(killed.status(), IsOk());
  EXPECT_EQ(killed->exit_code, 255);

  Weakened([](auto& w) { w.isolation.no_clearenv = true; });
  const StatusOr<ExecResult> path = Run({"/usr/bin/env"});
  ASSERT_THAT(path.status(), IsOk());
  EXPECT_THAT(path->stdout_bytes, HasSubstr("PATH=/usr/bin:/bin\n"));
}

TEST_F(BwrapBackendTest, EachStateWeakeningChangesWhatItNames) {
  Weakened([](auto& w) { w.fresh_state_per_exec = true; });
  StatusOr<std::unique_ptr<Sandbox>> box = Acquire();
  ASSERT_THAT(box.status(), IsOk());
  ASSERT_THAT(ExecIn(**box, Shell("echo x > /tmp/x")).status(), IsOk());
  const StatusOr<ExecResult> fresh = ExecIn(**box, Shell("ls -A /tmp"));
  ASSERT_THAT(fresh.status(), IsOk());
  EXPECT_EQ(fresh->stdout_bytes, "");
  ASSERT_THAT(backend_->Dispose(std::move(*box)), IsOk());

  Weakened([](auto& w) { w.sandboxes_share_state = true; });
  StatusOr<std::unique_ptr<Sandbox>> a = Acquire();
  StatusOr<std::unique_ptr<Sandbox>> b = Acquire();
  ASSERT_THAT(a.status(), IsOk());
  ASSERT_THAT(b.status(), IsOk());
  ASSERT_THAT(ExecIn(**a, Shell("echo a > /tmp/a")).status(), IsOk());
  const StatusOr<ExecResult> shared = ExecIn(**b, Shell("ls -A /tmp"));
  ASSERT_THAT(shared.status(), IsOk());
  EXPECT_EQ(shared->stdout_bytes, "a\n");
  ASSERT_THAT(backend_->Dispose(std::move(*a)), IsOk());
  EXPECT_EQ(StateDirectories(), 1);
  ASSERT_THAT(backend_->Dispose(std::move(*b)), IsOk());
  EXPECT_EQ(StateDirectories(), 0);  // the last one out empties it
}

TEST_F(BwrapBackendTest, EachNamespaceWeakeningChangesWhatItNames) {
  char host_ipc[64] = {};
  ASSERT_GT(readlink("/proc/self/ns/ipc", host_ipc, sizeof host_ipc - 1), 0);
  for (const bool shared : {false, true}) {
    Weakened([shared](auto& w) { w.isolation.shared_ipc = shared; });
    const StatusOr<ExecResult> ipc = Run({"/usr/bin/readlink", "/proc/self/ns/ipc"});
    ASSERT_THAT(ipc.status(), IsOk());
    EXPECT_EQ(ipc->stdout_bytes == std::string(host_ipc) + "\n", shared) << ipc->stdout_bytes;
  }
  // A file only the host has, found through the host's root shown inside.
  const std::string canary = *tmpdir_ + "/canary-" + std::to_string(getpid());
  ASSERT_TRUE(std::ofstream(canary) << "host");
  Weakened([](auto& w) { w.isolation.host_root_visible = true; });
  const StatusOr<ExecResult> seen = Run({"/bin/cat", std::string(kHostRootInside) + canary});
  unlink(canary.c_str());
  ASSERT_THAT(seen.status(), IsOk());
  EXPECT_EQ(seen->stdout_bytes, "host");
}

TEST(BwrapBackendCreateTest, NamesWhatIsMissing) {
  EXPECT_THAT(BwrapBackend::Create({.bwrap_path = "/proc/nonexistent/bwrap", .image_dir = "/"}).status(),
              StatusIs(Outcome::kFailed, kBwrapNotFound));
  EXPECT_THAT(BwrapBackend::Create({.image_dir = "/proc/nonexistent"}).status(),
              StatusIs(Outcome::kFailed, kImageIncomplete));
}

}  // namespace
}  // namespace azure_pricing::sandbox::bwrap
