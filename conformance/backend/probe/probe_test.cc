// sandbox_probe run on the host, as a sandbox backend would run it: exact argv and environment,
// stdout read as one JSON object. Each subcommand's contract is checked here so that the backend
// conformance suite, which runs the probe inside sandboxes, can trust what the probe reports.
#include <arpa/inet.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "fakes/testing/server_process.h"
#include "gtest/gtest.h"
#include "ref/base/openssl.h"
#include "ref/base/runfiles.h"
#include "ref/base/test_tmpdir.h"
#include "ref/egress/proxy.h"

namespace azure_pricing::conformance::backend::probe {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// ---- Running the probe -------------------------------------------------------------------

std::string ProbePath() {
  return base::Runfile("conformance/backend/probe/sandbox_probe");
}

std::string TmpDir() { return base::TestTmpDir(); }

const std::vector<std::string> kEnv = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"};

struct Spawn {
  std::vector<std::string> args;  // after the program name
  std::vector<std::string> env = kEnv;
  std::string cwd;                   // empty: the test's
  int stdout_fd = -1;                // -1: a capture file
  std::vector<int> blocked_signals;  // the probe starts with these blocked
};

struct Child {
  pid_t pid = -1;
  std::string out_path, err_path;
  Clock::time_point started;
};

struct Finished {
  int exit_code = -1;  // -1 when it did not exit normally
  int signal = 0;      // the signal that ended it; 0 when it exited (or timed out)
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
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t blocked;
  sigemptyset(&blocked);
  for (const int signal_number : spawn.blocked_signals) sigaddset(&blocked, signal_number);
  posix_spawnattr_setsigmask(&attributes, &blocked);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  std::vector<std::string> args = {ProbePath()}, env = spawn.env;
  args.insert(args.end(), spawn.args.begin(), spawn.args.end());
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  child.started = Clock::now();
  if (posix_spawn(&child.pid, argv[0], &actions, &attributes, argv.data(), envp.data()) != 0) {
    child.pid = -1;
  }
  posix_spawnattr_destroy(&attributes);
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
  if (child.pid > 0 && !run.timed_out && WIFSIGNALED(status)) run.signal = WTERMSIG(status);
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

void ExpectUsage(const std::vector<std::string>& args) {
  Finished run = RunProbe(args);
  SCOPED_TRACE(args.empty() ? "(none)" : args[0] + (args.size() > 1 ? " " + args[1] : ""));
  EXPECT_EQ(run.exit_code, 64);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err.rfind("usage: sandbox_probe ", 0), 0u) << run.err;
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
      {"https-get", "https://prices.azure.com/", "--pipeline"},
      {"https-get", "https://prices.azure.com/", "--then", "GET /x"},
      {"https-get", "https://prices.azure.com/", "--then"},
      {"https-get", "https://prices.azure.com/", "--host-header", "a\r\nX-Injected: 1"},
      {"https-get", "https://prices.azure.com/", "--host-header", ""},
      {"https-get", "https://prices.azure.com/", "--sni", "a b"},
      {"https-get", "https://prices.azure.com/", "--sni", "x", "--sni", "y"},
      {"https-get", "https://prices.azure.com/", "--then", "A", "--then", "B", "--then", "C",
       "--then", "D", "--then", "E", "--then", "F", "--then", "G", "--then", "H", "--then", "I"},
      {"https-get", "https://prices.azure.com/", "--header", "Upgrade"},
      {"https-get", "https://prices.azure.com/", "--header", "Up grade: x"},
      {"https-get", "https://prices.azure.com/", "--header", "A: 1\r\nB: 2"},
      {"https-get", "https://prices.azure.com/", "--then-host", "other.example"},
      {"https-get", "https://prices.azure.com/", "--then-target", "/y"},
      {"https-get", "https://prices.azure.com/", "--then", "GET", "--then-target", "/y z"},
      {"https-get", "https://prices.azure.com/", "--raw", "--then", "GET"},
      {"https-get", "https://prices.azure.com/", "--raw", "--raw"},
  };
  for (const std::vector<std::string>& args : cases) ExpectUsage(args);
}

TEST(ProbeTest, BadIpcWalkListenAndSignalArgumentsAreUsageErrors) {
  const std::vector<std::vector<std::string>> cases = {
      {"ipc-create", "0", "name"},
      {"ipc-create", "2147483648", "name"},
      {"ipc-create", "1", ""},
      {"ipc-create", "1", std::string(201, 'a')},
      {"ipc-look", "1", "a/b"},
      {"ipc-look", "-1", "name"},
      {"ipc-look", "1"},
      {"find-names", "", "10"},
      {"find-names", "a/b", "10"},
      {"find-names", "x", "0"},
      {"find-names", "x", "10000001"},
      {"mounts", "extra"},
      {"listen", "m", "0", "1"},
      {"listen", "m", "65536", "1"},
      {"listen", "m", "80", "soon"},
      {"signal", "0"},
      {"signal", "65"},
      {"signal", "KILL"},
  };
  for (const std::vector<std::string>& args : cases) ExpectUsage(args);
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

TEST(ProbeTest, SignalDiesOfTheSignalEvenWhenItWasBlocked) {
  for (const int number : {SIGKILL, SIGTERM, SIGUSR1, SIGRTMIN + 8}) {
    SCOPED_TRACE(number);
    Finished run = RunProbe({"signal", std::to_string(number)});
    EXPECT_EQ(run.signal, number) << run.out << run.err;
    EXPECT_EQ(run.out, "");
  }
  // A mask passed down to the probe does not keep it alive: the default action is what it shows.
  Finished blocked = RunProbe(Spawn{{"signal", std::to_string(SIGTERM)}, kEnv, "", -1, {SIGTERM}});
  EXPECT_EQ(blocked.signal, SIGTERM) << blocked.out;
}

TEST(ProbeTest, SignalSurvivesWhatTheDefaultActionIgnoresOrStops) {
  // SIGCHLD's default is to ignore; SIGSTOP's to stop, which must not become a hang.
  for (const int number : {SIGCHLD, SIGSTOP, SIGTSTP}) {
    SCOPED_TRACE(number);
    Finished run = RunProbe({"signal", std::to_string(number)});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.json, Json({{"survived", true}})) << run.out;
    EXPECT_LT(run.elapsed, milliseconds(5000));
  }
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

TEST(ProbeTest, FindNamesFindsAPlantedFileWithoutFollowingSymlinks) {
  // Under /tmp, two levels down: a breadth-first walk from / reaches it after a few thousand
  // entries, where TEST_TMPDIR lies many levels deeper.
  std::string dir = "/tmp/probe-find-XXXXXX";
  ASSERT_NE(mkdtemp(dir.data()), nullptr) << std::strerror(errno);
  const std::string token = NewMarker() + "-planted";
  const std::string planted = dir + "/a-" + token + ".txt";
  std::ofstream(planted) << "x";
  // A symlink to a directory holding another match: the walk must not go through it.
  const std::string elsewhere = TmpDir() + "/find-elsewhere";
  std::filesystem::create_directories(elsewhere);
  std::ofstream(elsewhere + "/b-" + token) << "x";
  std::filesystem::create_directory_symlink(elsewhere, dir + "/link");
  Finished run = RunProbe({"find-names", token, "200000"});
  Finished one = RunProbe({"find-names", token, "1"});
  std::filesystem::remove_all(dir);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(run.json["found"].is_array()) << run.out;
  EXPECT_NE(std::find(run.json["found"].begin(), run.json["found"].end(), planted),
            run.json["found"].end())
      << run.out;
  EXPECT_EQ(std::find(run.json["found"].begin(), run.json["found"].end(), dir + "/link/b-" + token),
            run.json["found"].end())
      << run.out;
  EXPECT_LE(run.json["visited"].get<long long>(), 200000);
  EXPECT_TRUE(run.json["unreadable"].is_number_integer());
  // One entry read, and the walk says it stopped short.
  EXPECT_EQ(one.json, Json({{"found", Json::array()},
                            {"visited", 1},
                            {"complete", false},
                            {"unreadable", 0}}))
      << one.out;
}

TEST(ProbeTest, MountsListsEveryMountOfTheNamespaceIncludingTheRoot) {
  Finished run = RunProbe({"mounts"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(run.json["mounts"].is_array()) << run.out;
  EXPECT_FALSE(run.json.contains("error")) << run.out;
  // The probe is in the test's mount namespace: one entry per line of the test's mountinfo.
  const std::string mountinfo = Slurp("/proc/self/mountinfo");
  EXPECT_EQ(run.json["mounts"].size(),
            static_cast<size_t>(std::count(mountinfo.begin(), mountinfo.end(), '\n')));
  bool root = false;
  for (const Json& mount : run.json["mounts"]) {
    for (const char* key : {"mount_point", "root", "device", "fstype", "source", "options"}) {
      ASSERT_TRUE(mount[key].is_string()) << key << " in " << mount;
    }
    const std::string device = mount["device"];
    EXPECT_EQ(device.find_first_not_of("0123456789:"), std::string::npos) << device;
    EXPECT_EQ(std::count(device.begin(), device.end(), ':'), 1) << device;
    EXPECT_EQ(mount["mount_point"].get<std::string>().find("\\0"), std::string::npos);
    root = root || mount["mount_point"] == "/";
  }
  EXPECT_TRUE(root) << run.out;
}

// ---- ipc-create, ipc-look -------------------------------------------------------------------

// A System V key and queue name no other run uses. Random: runs in separate PID namespaces may
// share a pid, and IPC objects are seen across them when the IPC namespace is shared.
struct IpcNames {
  key_t key;
  std::string name;
};

IpcNames NewIpcNames() {
  const unsigned random = std::random_device()() & 0x0fffffff;
  return {static_cast<key_t>(0x10000000 + random), "probe-test-" + std::to_string(random)};
}

// Which of the four objects exist, as the test itself sees them.
std::vector<bool> IpcSeen(const IpcNames& names) {
  const mqd_t queue = mq_open(("/" + names.name).c_str(), O_RDONLY);
  if (queue != static_cast<mqd_t>(-1)) mq_close(queue);
  return {shmget(names.key, 0, 0) >= 0, msgget(names.key, 0) >= 0, semget(names.key, 0, 0) >= 0,
          queue != static_cast<mqd_t>(-1)};
}

// Removes what ipc-create made, passed or failed: IPC objects outlive every process.
class RemoveIpcAtEnd {
 public:
  explicit RemoveIpcAtEnd(IpcNames names) : names_(std::move(names)) {}
  ~RemoveIpcAtEnd() {
    if (const int id = shmget(names_.key, 0, 0); id >= 0) shmctl(id, IPC_RMID, nullptr);
    if (const int id = msgget(names_.key, 0); id >= 0) msgctl(id, IPC_RMID, nullptr);
    if (const int id = semget(names_.key, 0, 0); id >= 0) semctl(id, 0, IPC_RMID);
    mq_unlink(("/" + names_.name).c_str());
  }

 private:
  IpcNames names_;
};

TEST(ProbeTest, IpcCreateLeavesObjectsThatIpcLookFinds) {
  const IpcNames names = NewIpcNames();
  const RemoveIpcAtEnd cleanup(names);
  const std::string key = std::to_string(names.key);
  Finished created = RunProbe({"ipc-create", key, names.name});
  EXPECT_EQ(created.exit_code, 0) << created.err;
  EXPECT_EQ(created.json, Json({{"sysv_shm", true},
                                {"sysv_msg", true},
                                {"sysv_sem", true},
                                {"posix_mq", true},
                                {"error", ""}}))
      << created.out;
  // They outlive the probe that made them, open to everyone.
  EXPECT_EQ(IpcSeen(names), std::vector<bool>({true, true, true, true}));
  shmid_ds segment{};
  ASSERT_EQ(shmctl(shmget(names.key, 0, 0), IPC_STAT, &segment), 0);
  EXPECT_EQ(segment.shm_perm.mode & 0777, 0666);
  Finished look = RunProbe({"ipc-look", key, names.name});
  EXPECT_EQ(look.exit_code, 0) << look.err;
  EXPECT_EQ(look.json, Json({{"sysv_shm", true},
                             {"sysv_msg", true},
                             {"sysv_sem", true},
                             {"posix_mq", true},
                             {"mqueue_fs", std::filesystem::is_directory("/dev/mqueue")},
                             {"error", ""}}))
      << look.out;
}

TEST(ProbeTest, IpcLookFindsNothingForAnUnusedKeyAndMakesNothing) {
  const IpcNames names = NewIpcNames();
  const RemoveIpcAtEnd cleanup(names);  // only if looking made something, wrongly
  ASSERT_EQ(IpcSeen(names), std::vector<bool>({false, false, false, false}));
  Finished look = RunProbe({"ipc-look", std::to_string(names.key), names.name});
  EXPECT_EQ(look.exit_code, 0) << look.err;
  EXPECT_EQ(look.json, Json({{"sysv_shm", false},
                             {"sysv_msg", false},
                             {"sysv_sem", false},
                             {"posix_mq", false},
                             {"mqueue_fs", std::filesystem::is_directory("/dev/mqueue")},
                             {"error", ""}}))
      << look.out;
  EXPECT_EQ(IpcSeen(names), std::vector<bool>({false, false, false, false}));
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

TEST(ProbeTest, ListenLeavesADetachedListenerForItsSeconds) {
  const std::string marker = NewMarker();
  const KillMarkedAtEnd cleanup(marker);
  int port = 0;
  close(BoundLoopback(false, port));  // a free port, given back for the listener
  const std::string port_text = std::to_string(port);
  Finished run = RunProbe({"listen", marker, port_text, "1.5"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json, Json({{"listening", true}, {"error", ""}})) << run.out;
  EXPECT_LT(run.elapsed, milliseconds(1500)) << "the probe does not wait for the listener";
  const std::vector<pid_t> pids = MarkedPids(marker);
  ASSERT_EQ(pids.size(), 1u);
  EXPECT_NE(getsid(pids[0]), getsid(0)) << "the listener is in a session of its own";
  // Accepted more than once: the listener goes on after a connection.
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(RunProbe({"connect", "127.0.0.1", port_text, "2000"}).json,
              Json({{"connected", true}, {"error", ""}}));
  }
  EXPECT_TRUE(WaitUntil([&] { return MarkedPids(marker).empty(); }, milliseconds(4000)));
  EXPECT_EQ(RunProbe({"connect", "127.0.0.1", port_text, "2000"}).json,
            Json({{"connected", false}, {"error", "Connection refused"}}));
}

TEST(ProbeTest, ListenReportsAPortThatIsTaken) {
  const std::string marker = NewMarker();
  const KillMarkedAtEnd cleanup(marker);
  int port = 0;
  const int taken = BoundLoopback(true, port);
  Finished run = RunProbe({"listen", marker, std::to_string(port), "30"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json, Json({{"listening", false}, {"error", "bind: Address already in use"}}))
      << run.out;
  EXPECT_TRUE(WaitUntil([&] { return MarkedPids(marker).empty(); }, milliseconds(3000)));
  close(taken);
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

 public:
  static int UpstreamPort() { return upstream_->port(); }
  static std::string UpstreamCa() { return upstream_->ca_file(); }

 protected:

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
  EXPECT_EQ(run.json["responses"], Json::parse(R"([{"method":"GET","status":200,"ok":true}])"));
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
                  {"error", "HTTPS_PROXY is not set"},
                  {"responses", Json::array()}}));
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

// The fake price API directly (--no-proxy), which keeps connections alive as HTTP/1.1 servers do.
std::vector<std::string> DirectToUpstream(const std::string& path) {
  return {"https://127.0.0.1:" + std::to_string(HttpsGetTest::UpstreamPort()) + path, "--no-proxy",
          "--ca-file", HttpsGetTest::UpstreamCa()};
}

std::vector<std::string> Plus(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST_F(HttpsGetTest, ThenKeepsTheConnectionToARealServerInStep) {
  Finished run = Get(Plus(DirectToUpstream("/api/retail/prices"),
                          {"--then", "HEAD", "--then", "GET", "--then", "POST"}));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json["status"], 200) << run.out;
  EXPECT_EQ(run.json["error"], "") << run.out;
  // Every request answered on the one connection: the HEAD answer (which announces a body it
  // does not send) left the stream where the next GET's answer starts.
  const Json& responses = run.json["responses"];
  ASSERT_EQ(responses.size(), 4u) << run.out;
  EXPECT_EQ(responses[1]["method"], "HEAD");
  EXPECT_EQ(responses[1]["ok"], true) << run.out;
  EXPECT_EQ(responses[2], Json::parse(R"({"method":"GET","status":200,"ok":true})")) << run.out;
  EXPECT_EQ(responses[3]["method"], "POST");
  EXPECT_EQ(responses[3]["ok"], true) << run.out;
  Json methods = Json::array();
  for (const Json& request : UpstreamRequests()) methods.push_back(request["method"]);
  EXPECT_EQ(methods, Json::parse(R"(["GET","HEAD","GET","POST"])"));
}

TEST_F(HttpsGetTest, ASecondRequestInTheTunnelIsNotForwarded) {
  Finished run = Get({kPricesUrl, "--then", "POST"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // The first request's members are as without --then.
  EXPECT_EQ(run.json["stage"], "http") << run.out;
  EXPECT_EQ(run.json["status"], 200);
  EXPECT_EQ(run.json["error"], "");
  // The proxy serves one request per tunnel and closes it: the POST gets no answer at all.
  EXPECT_EQ(run.json["responses"], Json::parse(R"([{"method":"GET","status":200,"ok":true},
                                                  {"method":"POST","status":0,"ok":false}])"))
      << run.out;
  const Json requests = UpstreamRequests();
  ASSERT_EQ(requests.size(), 1u) << requests;
  EXPECT_EQ(requests[0]["method"], "GET");
}

TEST_F(HttpsGetTest, APipelinedSecondRequestIsNotForwarded) {
  Finished run = Get({kPricesUrl, "--then", "GET", "--pipeline"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const Json& responses = run.json["responses"];
  ASSERT_EQ(responses.size(), 2u) << run.out;
  EXPECT_EQ(responses[0]["status"], run.json["status"]);
  EXPECT_NE(responses[0]["status"], 0) << "the first request is answered, one way or the other";
  const int second = responses[1]["status"];
  EXPECT_TRUE(second < 200 || second >= 300) << run.out;
  EXPECT_LE(UpstreamRequests().size(), 1u);
}

TEST_F(HttpsGetTest, AnotherHostHeaderIsRefusedInsideTheTunnel) {
  Finished run = Get({kPricesUrl, "--host-header", "management.azure.com"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json["stage"], "http") << run.out;
  EXPECT_GE(run.json["status"], 400);
  EXPECT_LT(run.json["status"], 500);
  EXPECT_EQ(UpstreamRequests().size(), 0u);
}

TEST_F(HttpsGetTest, AnotherSniIsRefused) {
  Finished run = Get({kPricesUrl, "--sni", "management.azure.com"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const int status = run.json["status"];
  EXPECT_TRUE(run.json["stage"] == "tls" || (status >= 400 && status < 500)) << run.out;
  EXPECT_EQ(run.json["ok"] == true && status < 400, false) << run.out;
  EXPECT_EQ(UpstreamRequests().size(), 0u);
}

TEST_F(HttpsGetTest, ALowerCaseMethodIsRefused) {
  Finished run = Get({kPricesUrl, "--method", "get"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.json["stage"], "http") << run.out;
  EXPECT_GE(run.json["status"], 400);
  EXPECT_LT(run.json["status"], 500);
  EXPECT_EQ(UpstreamRequests().size(), 0u);
}

// ---- https-get against a scripted server --------------------------------------------------

// A self-signed certificate for 127.0.0.1 and its key, made in process.
struct SelfSigned {
  base::EvpPkeyPtr key;
  base::X509Ptr cert;
};

SelfSigned MakeSelfSigned() {
  SelfSigned out{base::EvpPkeyPtr(EVP_EC_gen("P-256")), base::X509Ptr(X509_new())};
  X509* const cert = out.cert.get();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 86400);
  X509_set_pubkey(cert, out.key.get());
  X509_NAME* const name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("probe test"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, cert, cert, nullptr, nullptr, 0);
  const base::X509ExtensionPtr san(
      X509V3_EXT_conf_nid(nullptr, &context, NID_subject_alt_name, "IP:127.0.0.1"));
  X509_add_ext(cert, san.get(), -1);
  X509_sign(cert, out.key.get(), EVP_sha256());
  return out;
}

// A TLS server on loopback that answers one connection from a script: each request head gets
// the next canned response, either as it arrives or, with `after_all`, only once every request
// has arrived (which a client waiting for each response before the next request never sees).
// It closes after the last response, and records the heads and the SNI it was sent.
class ScriptedServer {
 public:
  ScriptedServer(std::vector<std::string> responses, bool after_all)
      : responses_(std::move(responses)), after_all_(after_all) {
    SelfSigned identity = MakeSelfSigned();
    ctx_.reset(SSL_CTX_new(TLS_server_method()));
    SSL_CTX_use_certificate(ctx_.get(), identity.cert.get());
    SSL_CTX_use_PrivateKey(ctx_.get(), identity.key.get());
    static int servers = 0;
    ca_file_ = TmpDir() + "/scripted-" + std::to_string(++servers) + ".pem";
    const base::BioPtr file(BIO_new_file(ca_file_.c_str(), "w"));
    PEM_write_bio_X509(file.get(), identity.cert.get());
    listener_ = BoundLoopback(true, port_);
    thread_ = std::thread([this] { Serve(); });
  }
  ~ScriptedServer() { Join(); }

  int port() const { return port_; }
  const std::string& ca_file() const { return ca_file_; }
  // Waits for the connection to end; then the request heads as read, and the SNI.
  const std::vector<std::string>& Requests() {
    Join();
    return requests_;
  }
  const std::string& Sni() {
    Join();
    return sni_;
  }

 private:
  void Join() {
    if (thread_.joinable()) thread_.join();
    if (listener_ >= 0) close(listener_);
    listener_ = -1;
  }

  void Serve() {
    pollfd ready{listener_, POLLIN, 0};
    if (poll(&ready, 1, 10'000) != 1) return;
    const int fd = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;
    const timeval timeout{5, 0};  // a client that stops sending must not hold the test
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    const base::SslPtr ssl(SSL_new(ctx_.get()));
    SSL_set_fd(ssl.get(), fd);
    if (SSL_accept(ssl.get()) == 1) {
      const char* sni = SSL_get_servername(ssl.get(), TLSEXT_NAMETYPE_host_name);
      sni_ = sni != nullptr ? sni : "";
      Converse(ssl.get());
      SSL_shutdown(ssl.get());
    }
    close(fd);
  }

  void Converse(SSL* ssl) {
    std::string data;
    size_t answered = 0;
    char buffer[4096];
    while (answered < responses_.size()) {
      const int n = SSL_read(ssl, buffer, sizeof buffer);
      if (n <= 0) return;
      data.append(buffer, static_cast<size_t>(n));
      for (size_t end; (end = data.find("\r\n\r\n")) != std::string::npos;) {
        requests_.push_back(data.substr(0, end + 4));
        data.erase(0, end + 4);
      }
      const bool all_arrived = requests_.size() >= responses_.size();
      const size_t until =
          std::min(responses_.size(), after_all_ && !all_arrived ? 0 : requests_.size());
      for (; answered < until; ++answered) {
        SSL_write(ssl, responses_[answered].data(), static_cast<int>(responses_[answered].size()));
      }
    }
  }

  std::vector<std::string> responses_;
  bool after_all_;
  base::SslCtxPtr ctx_;
  std::string ca_file_;
  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
  std::vector<std::string> requests_;
  std::string sni_;
};

// Three responses whose ends are each found a different way: chunked (with an extension and a
// trailer), none at all after a HEAD, and a length after an interim 100; then one that ends
// only at the connection's close.
const std::vector<std::string> kFramedResponses = {
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n",
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabc",
    "HTTP/1.1 202 Accepted\r\n\r\nuntil the close",
};

std::vector<std::string> ToScripted(const ScriptedServer& server, std::vector<std::string> more) {
  std::vector<std::string> args = {
      "https-get", "https://127.0.0.1:" + std::to_string(server.port()) + "/x", "--no-proxy",
      "--ca-file", server.ca_file(),    "--timeout-ms", "8000"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(HttpsGetScriptedTest, EachResponseIsReadToItsEndWhateverFramesIt) {
  for (const bool pipeline : {false, true}) {
    SCOPED_TRACE(pipeline ? "pipelined" : "one after another");
    ScriptedServer server(kFramedResponses, /*after_all=*/pipeline);
    std::vector<std::string> more = {"--then", "HEAD", "--then", "GET", "--then", "GET",
                                     "--then", "GET"};
    if (pipeline) more.push_back("--pipeline");
    Finished run = RunProbe(ToScripted(server, more));
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.json["status"], 200) << run.out;
    EXPECT_EQ(run.json["body_bytes"], 11) << "chunk payload only";
    EXPECT_EQ(run.json["error"], "");
    // The fifth request finds the connection closed after the body that ran to the close.
    EXPECT_EQ(run.json["responses"], Json::parse(R"([{"method":"GET","status":200,"ok":true},
                                                    {"method":"HEAD","status":200,"ok":true},
                                                    {"method":"GET","status":404,"ok":true},
                                                    {"method":"GET","status":202,"ok":true},
                                                    {"method":"GET","status":0,"ok":false}])"))
        << run.out;
    // One after another, the fifth is never sent: the fourth body ended with the connection.
    // Pipelined, the server answered only once it had all four it has answers for.
    if (pipeline) {
      EXPECT_GE(server.Requests().size(), 4u);
    } else {
      EXPECT_EQ(server.Requests().size(), 4u);
    }
  }
}

TEST(HttpsGetScriptedTest, RequestsAreSentExactlyAsAsked) {
  ScriptedServer server({"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
                         "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
                         "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
                        /*after_all=*/false);
  Finished run = RunProbe(ToScripted(server, {"--method", "get", "--host-header", "other.example",
                                              "--sni", "sni.example", "--then", "POST", "--then",
                                              "HEAD", "--body", "abc"}));
  EXPECT_EQ(run.json["responses"].size(), 3u) << run.out;
  // The method as given, the Host given, no Connection header; the body only on the first, and
  // a later request other than GET or HEAD says it has none.
  EXPECT_EQ(server.Requests(),
            std::vector<std::string>(
                {"get /x HTTP/1.1\r\nHost: other.example\r\nContent-Length: 3\r\n\r\n",
                 "abcPOST /x HTTP/1.1\r\nHost: other.example\r\nContent-Length: 0\r\n\r\n",
                 "HEAD /x HTTP/1.1\r\nHost: other.example\r\n\r\n"}));
  // The certificate still verified for 127.0.0.1, the URL's host, under another server name.
  EXPECT_EQ(server.Sni(), "sni.example");
  EXPECT_EQ(run.json["stage"], "http") << run.out;
}

TEST(HttpsGetScriptedTest, HeadersAndLaterHostAndTargetAreSentAsGiven) {
  ScriptedServer server({"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
                         "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
                        /*after_all=*/false);
  Finished run = RunProbe(ToScripted(
      server, {"--header", "Upgrade: websocket", "--header", "Connection: Upgrade", "--then", "GET",
               "--then-host", "other.example", "--then-target", "https://other.example/y"}));
  EXPECT_EQ(run.json["responses"].size(), 2u) << run.out;
  const std::string host = "127.0.0.1:" + std::to_string(server.port());
  // The extra headers on the first request only; the later one's Host and target as given.
  EXPECT_EQ(server.Requests(),
            std::vector<std::string>({"GET /x HTTP/1.1\r\nHost: " + host +
                                          "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
                                      "GET https://other.example/y HTTP/1.1\r\nHost: "
                                      "other.example\r\n\r\n"}));
}

TEST(HttpsGetScriptedTest, RawReportsTheResponseBytesAsTheyCame) {
  const std::string response =
      "HTTP/1.1 200 OK\r\nx-odd:  spaced \r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello";
  ScriptedServer server({response}, /*after_all=*/false);
  Finished run = RunProbe(ToScripted(server, {"--raw"}));
  EXPECT_EQ(run.json["status"], 200) << run.out;
  unsigned char encoded[256] = {};
  const int n = EVP_EncodeBlock(encoded, reinterpret_cast<const unsigned char*>(response.data()),
                                static_cast<int>(response.size()));
  EXPECT_EQ(run.json["raw_base64"], std::string(reinterpret_cast<char*>(encoded), n)) << run.out;
}

}  // namespace
}  // namespace azure_pricing::conformance::backend::probe
