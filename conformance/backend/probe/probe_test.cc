// sandbox_probe run on the host, as a sandbox backend would run it: exact argv and environment,
// stdout read as one JSON object. Each subcommand's contract is checked here so that the backend
// conformance suite, which runs the probe inside sandboxes, can trust what the probe reports.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

#include "fakes/testing/server_process.h"
#include "gtest/gtest.h"
#include "ref/egress/proxy.h"

namespace azure_pricing::probe {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// ---- Running the probe -------------------------------------------------------------------

std::string ProbePath() {
  return std::string(std::getenv("TEST_SRCDIR")) + "/" + std::getenv("TEST_WORKSPACE") +
         "/conformance/backend/probe/sandbox_probe";
}

std::string TmpDir() { return std::getenv("TEST_TMPDIR"); }

const std::vector<std::string> kEnv = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"};

struct Spawn {
  std::vector<std::string> args;  // after the program name
  std::vector<std::string> env = kEnv;
  std::string cwd;     // empty: the test's
  int stdout_fd = -1;  // -1: a capture file
};

struct Child {
  pid_t pid = -1;
  std::string out_path, err_path;
  Clock::time_point started;
};

struct Finished {
  int exit_code = -1;  // -1 when it did not exit normally
  bool timed_out = false;
  std::string out, err;
  milliseconds elapsed{0};
  Json json;  // stdout parsed; discarded when stdout is not one JSON line
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Each run captures into its own files, so runs may overlap (a tree and a procs beside it).
Child Start(const Spawn& spawn) {
  static int runs = 0;
  Child child;
  const std::string base = TmpDir() + "/run-" + std::to_string(++runs);
  child.out_path = base + ".out";
  child.err_path = base + ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (spawn.stdout_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, spawn.stdout_fd, 1);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, child.out_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  posix_spawn_file_actions_addopen(&actions, 2, child.err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!spawn.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spawn.cwd.c_str());
  std::vector<std::string> args = {ProbePath()}, env = spawn.env;
  args.insert(args.end(), spawn.args.begin(), spawn.args.end());
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  child.started = Clock::now();
  if (posix_spawn(&child.pid, argv[0], &actions, nullptr, argv.data(), envp.data()) != 0) {
    child.pid = -1;
  }
  posix_spawn_file_actions_destroy(&actions);
  return child;
}

Finished Finish(const Child& child, milliseconds deadline = milliseconds(30'000)) {
  Finished run;
  int status = 0;
  while (child.pid > 0 && waitpid(child.pid, &status, WNOHANG) == 0) {
    if (Clock::now() - child.started > deadline) {
      kill(child.pid, SIGKILL);
      waitpid(child.pid, &status, 0);
      run.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(milliseconds(10));
  }
  run.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - child.started);
  if (child.pid > 0 && !run.timed_out && WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  run.out = Slurp(child.out_path);
  run.err = Slurp(child.err_path);
  // Exactly one JSON object and a newline: a second object or stray text makes `json` null.
  if (!run.out.empty() && run.out.back() == '\n' &&
      run.out.find('\n') == run.out.size() - 1) {
    run.json = Json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  }
  return run;
}

Finished RunProbe(const Spawn& spawn) { return Finish(Start(spawn)); }
Finished RunProbe(const std::vector<std::string>& args) { return RunProbe(Spawn{args}); }

// ---- Processes the tests start --------------------------------------------------------------

// A marker no other process carries: this test's pid and a counter.
std::string NewMarker() {
  static int count = 0;
  return "probe-test-" + std::to_string(getpid()) + "-" + std::to_string(++count);
}

// Live processes whose command line carries `marker`, read from /proc by the test itself (not
// through the probe). Zombies have an empty command line, so they do not count.
std::vector<pid_t> MarkedPids(const std::string& marker) {
  std::vector<pid_t> pids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = Slurp("/proc/" + name + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(marker) != std::string::npos) pids.push_back(std::stoi(name));
  }
  return pids;
}

// Kills whatever still carries the marker when a test ends, passed or failed: the suite must
// leave no process behind.
class KillMarkedAtEnd {
 public:
  explicit KillMarkedAtEnd(std::string marker) : marker_(std::move(marker)) {}
  ~KillMarkedAtEnd() {
    for (const pid_t pid : MarkedPids(marker_)) kill(pid, SIGKILL);
  }

 private:
  std::string marker_;
};

bool WaitUntil(const std::function<bool()>& condition, milliseconds limit) {
  const auto end = Clock::now() + limit;
  while (!condition()) {
    if (Clock::now() > end) return false;
    std::this_thread::sleep_for(milliseconds(20));
  }
  return true;
}

// What the probe's own `procs` says about the marker: how many processes carry it.
int ProbeCountsMarked(const std::string& marker) {
  Finished run = RunProbe({"procs"});
  int count = 0;
  for (const Json& proc : run.json["procs"]) {
    if (proc["cmdline"].get<std::string>().find(marker) != std::string::npos) ++count;
  }
  return count;
}

// ---- argv, env, cwd, exit, usage ----------------------------------------------------------

TEST(ProbeTest, ArgvRoundTripsExactly) {
  const std::vector<std::string> args = {"plain", "with space", "double\"quote", "single'quote",
                                         "new\nline", "tab\there", "", "--flag", "é ü 価格 🙂",
                                         "back\\slash"};
  std::vector<std::string> argv = {"argv"};
  argv.insert(argv.end(), args.begin(), args.end());
  Finished run = RunProbe(argv);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json, Json({{"argv", args}})) << run.out;
  EXPECT_EQ(RunProbe({"argv"}).json, Json::parse(R"({"argv":[]})"));
}

TEST(ProbeTest, InvalidUtf8IsReplacedNotFatal) {
  Finished run = RunProbe({"argv", "bad\xff" "byte"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json["argv"][0], "bad\xEF\xBF\xBD" "byte");
}

TEST(ProbeTest, EnvIsExactlyTheGivenEnvironmentInOrder) {
  const std::vector<std::string> env = {"ZED=last-name-first", "HTTPS_PROXY=http://127.0.0.1:9",
                                        "EMPTY=", "SPACED=a b  c", "UTF8=é", "A=1=2"};
  Finished run = RunProbe(Spawn{{"env"}, env});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json, Json({{"env", env}})) << run.out;
  EXPECT_EQ(RunProbe(Spawn{{"env"}, {}}).json, Json::parse(R"({"env":[]})"));
}

TEST(ProbeTest, CwdIsTheDirectoryItRunsIn) {
  const std::string dir = TmpDir() + "/cwd here";
  std::filesystem::create_directories(dir);
  Finished run = RunProbe(Spawn{{"cwd"}, kEnv, dir});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json, Json({{"cwd", std::filesystem::canonical(dir).string()}}));
}

TEST(ProbeTest, ExitPrintsAndExitsWithTheCode) {
  for (const int code : {0, 1, 42, 64, 255}) {
    Finished run = RunProbe({"exit", std::to_string(code)});
    EXPECT_EQ(run.exit_code, code);
    EXPECT_EQ(run.json, Json({{"exit", code}}));
  }
}

TEST(ProbeTest, BadUsageIsAUsageLineAndExit64) {
  const std::vector<std::vector<std::string>> cases = {
      {},
      {"no-such-subcommand"},
      {"exit"},
      {"exit", "256"},
      {"exit", "-1"},
      {"exit", "1", "2"},
      {"exit", "x"},
      {"env", "extra"},
      {"linger", "m"},
      {"linger", "m", "forever"},
      {"linger", "m", "-1"},
      {"flood", "10", "stdin"},
      {"flood", "ten", "stdout"},
      {"stat"},
      {"connect", "127.0.0.1", "0", "100"},
      {"connect", "127.0.0.1", "80", "soon"},
      {"https-get"},
      {"https-get", "http://prices.azure.com/"},
      {"https-get", "https://prices.azure.com/", "--method"},
      {"https-get", "https://prices.azure.com/", "--method", "GET /x"},
      {"https-get", "https://prices.azure.com/", "--timeout-ms", "0"},
      {"https-get", "https://prices.azure.com/", "--no-proxy", "--no-proxy"},
      {"https-get", "https://prices.azure.com/", "--unknown", "x"},
      {"https-get", "https://user@prices.azure.com/"},
  };
  for (const std::vector<std::string>& args : cases) {
    Finished run = RunProbe(args);
    SCOPED_TRACE(args.empty() ? "(none)" : args[0] + (args.size() > 1 ? " " + args[1] : ""));
    EXPECT_EQ(run.exit_code, 64);
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.err.rfind("usage: sandbox_probe ", 0), 0u) << run.err;
  }
}

// ---- linger, tree, daemon, close-stdout, flood ----------------------------------------------

TEST(ProbeTest, LingerSleepsThenPrintsAnEmptyObject) {
  Finished run = RunProbe({"linger", NewMarker(), "0.3"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "{}\n");
  EXPECT_GE(run.elapsed, milliseconds(300));
}

TEST(ProbeTest, TreeLeavesMarkedChildAndGrandchildThatEndAfterSeconds) {
  const std::string marker = NewMarker();
  const KillMarkedAtEnd cleanup(marker);
  const Child tree = Start(Spawn{{"tree", marker, "2"}});
  // The parent, its child and its grandchild all carry the marker while it runs, and the
  // probe's `procs` sees them as the test's own /proc scan does.
  EXPECT_TRUE(WaitUntil([&] { return MarkedPids(marker).size() == 3; }, milliseconds(1500)));
  EXPECT_EQ(ProbeCountsMarked(marker), 3);
  Finished run = Finish(tree);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "{}\n") << "the helpers must not add objects to stdout";
  EXPECT_GE(run.elapsed, milliseconds(2000));
  EXPECT_TRUE(WaitUntil([&] { return MarkedPids(marker).empty(); }, milliseconds(3000)));
  EXPECT_EQ(ProbeCountsMarked(marker), 0);
}

TEST(ProbeTest, DaemonReturnsAtOnceWhileADetachedMarkedProcessLivesOn) {
  const std::string marker = NewMarker();
  const KillMarkedAtEnd cleanup(marker);
  Finished run = RunProbe({"daemon", marker, "60"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json, Json({{"daemon", true}}));
  EXPECT_LT(run.elapsed, milliseconds(5000));
  // The daemon has exec'd before the probe answered: it is there without waiting.
  const std::vector<pid_t> pids = MarkedPids(marker);
  ASSERT_EQ(pids.size(), 1u);
  EXPECT_EQ(ProbeCountsMarked(marker), 1);
  const pid_t daemon = pids[0];
  EXPECT_NE(getsid(daemon), getsid(0)) << "the daemon is in a session of its own";
  for (const char* fd : {"0", "1", "2"}) {
    EXPECT_EQ(std::filesystem::read_symlink("/proc/" + std::to_string(daemon) + "/fd/" + fd),
              "/dev/null");
  }
  ASSERT_EQ(kill(daemon, SIGKILL), 0);
  EXPECT_TRUE(WaitUntil([&] { return MarkedPids(marker).empty(); }, milliseconds(3000)));
}

TEST(ProbeTest, CloseStdoutClosesBothStreamsLongBeforeExiting) {
  const std::string marker = NewMarker();
  const KillMarkedAtEnd cleanup(marker);
  const Child child = Start(Spawn{{"close-stdout", marker, "1.5"}});
  const std::string fds = "/proc/" + std::to_string(child.pid) + "/fd/";
  EXPECT_TRUE(WaitUntil(
      [&] { return !std::filesystem::exists(fds + "1") && !std::filesystem::exists(fds + "2"); },
      milliseconds(1000)));
  EXPECT_EQ(waitpid(child.pid, nullptr, WNOHANG), 0) << "still running with its streams closed";
  EXPECT_EQ(MarkedPids(marker).size(), 1u);
  Finished run = Finish(child);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "");
  EXPECT_GE(run.elapsed, milliseconds(1500));
}

TEST(ProbeTest, FloodWritesTheByteCountToEachNamedStream) {
  struct Case {
    std::string bytes, stream;
    size_t out, err;
  };
  const std::vector<Case> cases = {{"100000", "stdout", 100000, 0},
                                   {"70001", "stderr", 0, 70001},
                                   {"300000", "both", 300000, 300000},
                                   {"1", "both", 1, 1},
                                   {"0", "both", 0, 0}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.bytes + " " + c.stream);
    Finished run = RunProbe({"flood", c.bytes, c.stream});
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_EQ(run.out, std::string(c.out, 'x'));
    EXPECT_EQ(run.err, std::string(c.err, 'x'));
  }
}

TEST(ProbeTest, FloodIntoAClosedPipeEndsQuietly) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  close(fds[0]);  // nobody will ever read: the first write gets EPIPE
  const Child child = Start(Spawn{{"flood", "10000000", "stdout"}, kEnv, "", fds[1]});
  close(fds[1]);
  Finished run = Finish(child);
  EXPECT_EQ(run.exit_code, 0) << "not killed by SIGPIPE";
  EXPECT_EQ(run.err, "");
}

// ---- files and /proc ----------------------------------------------------------------------

TEST(ProbeTest, WriteFileCreatesParentsAndReadFileReadsItBack) {
  const std::string path = TmpDir() + "/files/a/b/c.txt";
  const std::string content = "héllo\nworld \"quoted\"\n";
  EXPECT_EQ(RunProbe({"write-file", path, content}).json, Json({{"written", true}}));
  EXPECT_EQ(Slurp(path), content);
  Finished read = RunProbe({"read-file", path});
  EXPECT_EQ(read.exit_code, 0);
  EXPECT_EQ(read.json, Json({{"exists", true}, {"content", content}}));
  // Writing again replaces the content.
  EXPECT_EQ(RunProbe({"write-file", path, "2"}).json, Json({{"written", true}}));
  EXPECT_EQ(RunProbe({"read-file", path}).json["content"], "2");
}

TEST(ProbeTest, FileFailuresAreReportedNotFatal) {
  const std::string file = TmpDir() + "/plain-file";
  std::ofstream(file) << "x";
  Finished write = RunProbe({"write-file", file + "/under/a/file", "x"});
  EXPECT_EQ(write.exit_code, 0);
  EXPECT_EQ(write.json, Json({{"written", false}, {"errno", ENOTDIR}}));
  EXPECT_EQ(RunProbe({"read-file", TmpDir() + "/missing"}).json,
            Json({{"exists", false}, {"content", ""}}));
  EXPECT_EQ(RunProbe({"read-file", TmpDir()}).json,
            Json({{"exists", true}, {"content", ""}, {"errno", EISDIR}}));
  std::ofstream(TmpDir() + "/binary", std::ios::binary) << "ok\xff\xfe";
  EXPECT_EQ(RunProbe({"read-file", TmpDir() + "/binary"}).json["content"],
            "ok\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(ProbeTest, StatReportsEachPathWithoutFollowingSymlinks) {
  const std::string dangling = TmpDir() + "/dangling";
  std::filesystem::remove(dangling);
  std::filesystem::create_symlink(TmpDir() + "/nowhere", dangling);
  Finished run = RunProbe({"stat", "/", TmpDir() + "/nowhere", dangling, "/proc/self"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.json, Json({{"paths",
                             {{"/", true},
                              {TmpDir() + "/nowhere", false},
                              {dangling, true},
                              {"/proc/self", true}}}}));
}

TEST(ProbeTest, ProcsListsVisibleProcessesWithCommandLines) {
  Finished run = RunProbe({"procs"});
  EXPECT_EQ(run.exit_code, 0);
  ASSERT_TRUE(run.json["procs"].is_array()) << run.out;
  bool found_self = false;
  for (const Json& proc : run.json["procs"]) {
    ASSERT_TRUE(proc["pid"].is_number_integer());
    ASSERT_TRUE(proc["cmdline"].is_string());
    if (proc["pid"] == getpid()) {
      found_self = true;
      EXPECT_NE(proc["cmdline"].get<std::string>().find("probe_test"), std::string::npos);
    }
  }
  EXPECT_TRUE(found_self) << "the test process is visible to the probe it started";
}

TEST(ProbeTest, NetdevsIncludesLoopback) {
  Finished run = RunProbe({"netdevs"});
  EXPECT_EQ(run.exit_code, 0);
  ASSERT_TRUE(run.json["netdevs"].is_array()) << run.out;
  EXPECT_NE(std::find(run.json["netdevs"].begin(), run.json["netdevs"].end(), "lo"),
            run.json["netdevs"].end());
}

// ---- connect ----------------------------------------------------------------------------------

// A socket bound to a free loopback port; listening or not.
int BoundLoopback(bool listening, int& port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t size = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  port = ntohs(address.sin_port);
  if (listening) listen(fd, 8);
  return fd;
}

TEST(ProbeTest, ConnectSucceedsToAListeningPortAndFailsToAClosedOne) {
  int open_port = 0, closed_port = 0;
  const int listener = BoundLoopback(true, open_port);
  const int bound = BoundLoopback(false, closed_port);  // bound, never listening: refused
  EXPECT_EQ(RunProbe({"connect", "127.0.0.1", std::to_string(open_port), "2000"}).json,
            Json({{"connected", true}, {"error", ""}}));
  EXPECT_EQ(RunProbe({"connect", "localhost", std::to_string(open_port), "2000"}).json["connected"],
            true);
  Finished refused = RunProbe({"connect", "127.0.0.1", std::to_string(closed_port), "2000"});
  EXPECT_EQ(refused.exit_code, 0);
  EXPECT_EQ(refused.json, Json({{"connected", false}, {"error", "Connection refused"}}));
  Finished unresolved = RunProbe({"connect", "no-such-host.invalid", "443", "2000"});
  EXPECT_EQ(unresolved.json["connected"], false);
  EXPECT_EQ(unresolved.json["error"].get<std::string>().rfind("resolve: ", 0), 0u);
  close(listener);
  close(bound);
}

// ---- https-get ------------------------------------------------------------------------------

constexpr char kCatalog[] =
    R"({"serviceName":"Bandwidth","type":"Consumption","isPrimaryMeterRegion":true})"
    "\n";
const std::string kPricesUrl = "https://prices.azure.com/api/retail/prices?currencyCode=USD";

// The real egress proxy in process, in front of the fake price API: the path a sandbox's
// HTTPS_PROXY leads to in a deployment.
class HttpsGetTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    upstream_ = new fakes::test_support::PricesServerProcess(kCatalog);
    egress::ProxyOptions options;
    options.upstream_host = "127.0.0.1";
    options.upstream_port = upstream_->port();
    options.upstream_ca_file = upstream_->ca_file();
    options.log = [](const std::string&) {};  // the upstream's request log is what we check
    proxy_ = new egress::EgressProxy(options);
    ASSERT_TRUE(proxy_->Start().ok());
    ca_file_ = TmpDir() + "/egress-ca.pem";
    std::ofstream(ca_file_) << proxy_->egress_ca_pem();
    std::ofstream(TmpDir() + "/empty.pem");
  }
  static void TearDownTestSuite() {
    delete proxy_;
    delete upstream_;
  }
  void SetUp() override { ASSERT_TRUE(upstream_->Reset()); }

  // The environment a backend gives the CLI: the proxy and its CA.
  static std::vector<std::string> SandboxEnv(const std::string& ca_file = ca_file_) {
    return {"HTTPS_PROXY=http://127.0.0.1:" + std::to_string(proxy_->port()),
            "SSL_CERT_FILE=" + ca_file};
  }
  static Finished Get(std::vector<std::string> args, std::vector<std::string> env = SandboxEnv()) {
    args.insert(args.begin(), "https-get");
    return RunProbe(Spawn{args, env});
  }
  static Json UpstreamRequests() { return Json::parse(upstream_->RequestLog()); }

  static fakes::test_support::PricesServerProcess* upstream_;
  static egress::EgressProxy* proxy_;
  static std::string ca_file_;
};

fakes::test_support::PricesServerProcess* HttpsGetTest::upstream_ = nullptr;
egress::EgressProxy* HttpsGetTest::proxy_ = nullptr;
std::string HttpsGetTest::ca_file_;

TEST_F(HttpsGetTest, AGetThroughTheProxyTrustingItsCaSucceeds) {
  Finished run = Get({kPricesUrl});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json["stage"], "http") << run.out;
  EXPECT_EQ(run.json["ok"], true);
  EXPECT_EQ(run.json["status"], 200);
  EXPECT_GT(run.json["body_bytes"].get<int>(), 0);
  EXPECT_EQ(run.json["error"], "");
  const Json requests = UpstreamRequests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]["method"], "GET");
  EXPECT_EQ(requests[0]["target"], "/api/retail/prices?currencyCode=USD");
}

TEST_F(HttpsGetTest, BodyBytesIsTheResponseBodyLength) {
  auto direct = upstream_->Client()->Get("/api/retail/prices?currencyCode=USD");
  ASSERT_TRUE(direct);
  ASSERT_TRUE(upstream_->Reset());
  EXPECT_EQ(Get({kPricesUrl}).json["body_bytes"], direct->body.size());
}

TEST_F(HttpsGetTest, AnEmptyTrustStoreFailsAtTls) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{kPricesUrl, "--ca-file", "/dev/null"},
        std::vector<std::string>{kPricesUrl, "--ca-file", TmpDir() + "/empty.pem"}}) {
    SCOPED_TRACE(args[2]);
    Finished run = Get(args);
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_EQ(run.json["stage"], "tls") << run.out;
    EXPECT_EQ(run.json["ok"], false);
    EXPECT_NE(run.json["error"].get<std::string>().find("verify"), std::string::npos) << run.out;
  }
  // SSL_CERT_FILE naming an empty file is an empty store too, never the system's.
  EXPECT_EQ(Get({kPricesUrl}, SandboxEnv(TmpDir() + "/empty.pem")).json["stage"], "tls");
  // A CA, but not the proxy's.
  EXPECT_EQ(Get({kPricesUrl, "--ca-file", upstream_->ca_file()}).json["stage"], "tls");
  EXPECT_EQ(UpstreamRequests().size(), 0u);
}

TEST_F(HttpsGetTest, APostIsRefusedInsideTheTunnel) {
  Finished run = Get({kPricesUrl, "--method", "POST", "--body", "{\"a\":1}"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.json["stage"], "http") << run.out;
  EXPECT_EQ(run.json["status"], 405);
  EXPECT_EQ(UpstreamRequests().size(), 0u);
}

TEST_F(HttpsGetTest, AnotherHostIsRefusedAtConnect) {
  Finished run = Get({"https://evil.example/"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.json["stage"], "proxy") << run.out;
  EXPECT_EQ(run.json["ok"], false);
  EXPECT_EQ(run.json["status"], 403);
  EXPECT_NE(run.json["error"].get<std::string>().find("403"), std::string::npos);
  EXPECT_EQ(UpstreamRequests().size(), 0u);
}

TEST_F(HttpsGetTest, WithoutAProxyItSaysSo) {
  EXPECT_EQ(Get({kPricesUrl}, {}).json,
            Json({{"stage", "proxy"},
                  {"ok", false},
                  {"status", 0},
                  {"body_bytes", 0},
                  {"error", "HTTPS_PROXY is not set"}}));
  EXPECT_EQ(Get({kPricesUrl}, {"HTTPS_PROXY=socks5://127.0.0.1:1"}).json["error"],
            "HTTPS_PROXY is not http://HOST:PORT");
  int closed_port = 0;
  const int bound = BoundLoopback(false, closed_port);
  Finished refused =
      Get({kPricesUrl}, {"HTTPS_PROXY=http://127.0.0.1:" + std::to_string(closed_port)});
  EXPECT_EQ(refused.json["stage"], "proxy");
  EXPECT_EQ(refused.json["error"], "proxy: Connection refused");
  close(bound);
}

TEST_F(HttpsGetTest, AProxyThatNeverAnswersEndsAtTheDeadline) {
  int port = 0;
  const int silent = BoundLoopback(true, port);  // accepts (backlog) and never speaks
  Finished run = Get({kPricesUrl, "--timeout-ms", "500"},
                           {"HTTPS_PROXY=http://127.0.0.1:" + std::to_string(port)});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.json["stage"], "proxy") << run.out;
  EXPECT_EQ(run.json["error"], "proxy: timed out");
  EXPECT_LT(run.elapsed, milliseconds(5000));
  close(silent);
}

TEST_F(HttpsGetTest, NoProxyConnectsDirectlyAndVerifiesTheAddress) {
  const std::string url =
      "https://127.0.0.1:" + std::to_string(upstream_->port()) + "/api/retail/prices";
  // HTTPS_PROXY is set but --no-proxy ignores it.
  Finished direct = Get({url, "--no-proxy", "--ca-file", upstream_->ca_file()});
  EXPECT_EQ(direct.json["stage"], "http") << direct.out;
  EXPECT_EQ(direct.json["status"], 200);
  EXPECT_EQ(UpstreamRequests().size(), 1u);
  // The egress CA (SSL_CERT_FILE) did not sign the fake's certificate.
  EXPECT_EQ(Get({url, "--no-proxy"}).json["stage"], "tls");
  int closed_port = 0;
  const int bound = BoundLoopback(false, closed_port);
  Finished refused =
      Get({"https://127.0.0.1:" + std::to_string(closed_port) + "/", "--no-proxy"});
  EXPECT_EQ(refused.json["stage"], "connect");
  EXPECT_EQ(refused.json["error"], "Connection refused");
  close(bound);
}

}  // namespace
}  // namespace azure_pricing::probe
