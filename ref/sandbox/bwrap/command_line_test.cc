#include "ref/sandbox/bwrap/command_line.h"

#include <algorithm>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

using ::testing::Contains;
using ::testing::Not;

CommandLineInputs Inputs() {
  return {.bwrap_path = "/usr/bin/bwrap",
          .image_dir = "/img",
          .egress_socket = "/state/egress.sock",
          .egress_ca_file = "/state/ca.pem"};
}

// The words after `flag`, as consecutive elements.
bool HasSequence(const std::vector<std::string>& argv, const std::vector<std::string>& seq) {
  return std::search(argv.begin(), argv.end(), seq.begin(), seq.end()) != argv.end();
}

TEST(CommandLineTest, UnsharesEveryNamespaceAndDiesWithItsParent) {
  const StatusOr<std::vector<std::string>> argv =
      BwrapCommandLine(Inputs(), {.argv = {"azmcp"}, .env = {}});
  ASSERT_THAT(argv.status(), IsOk());
  for (const char* flag : {"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                           "--unshare-user", "--die-with-parent", "--new-session"}) {
    EXPECT_THAT(*argv, Contains(flag));
  }
  EXPECT_TRUE(HasSequence(*argv, {"--remount-ro", "/"}));
  EXPECT_TRUE(HasSequence(*argv, {"--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"}));
  EXPECT_TRUE(HasSequence(*argv, {"--tmpfs", "/tmp"}));
}

TEST(CommandLineTest, TheProgramRunsUnderSandboxInitWithItsArgvIntact) {
  const StatusOr<std::vector<std::string>> argv =
      BwrapCommandLine(Inputs(), {.argv = {"azmcp", "a b", "--x=\"y\"\n"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_TRUE(HasSequence(*argv, {"--", kInitPath, "--forward", "3128", "--to",
                                  kEgressSocketInside, "--unset-pwd", "--", "azmcp", "a b",
                                  "--x=\"y\"\n"}));
  EXPECT_EQ(argv->back(), "--x=\"y\"\n");
}

TEST(CommandLineTest, TheEnvironmentIsTheRequestsPlusTheTwoEgressVariables) {
  const StatusOr<std::vector<std::string>> argv =
      BwrapCommandLine(Inputs(), {.argv = {"p"}, .env = {"A=1=2", "HOME=/tmp/h"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_THAT(*argv, Contains("--clearenv"));
  EXPECT_TRUE(HasSequence(*argv, {"--setenv", "A", "1=2"}));
  EXPECT_TRUE(HasSequence(*argv, {"--setenv", "HTTPS_PROXY", "http://127.0.0.1:3128"}));
  EXPECT_TRUE(HasSequence(*argv, {"--setenv", "SSL_CERT_FILE", kEgressCaInside}));
  EXPECT_EQ(std::count(argv->begin(), argv->end(), "--setenv"), 4);
}

TEST(CommandLineTest, APwdInTheRequestIsRestoredAfterBubblewrapSetsItsOwn) {
  const StatusOr<std::vector<std::string>> argv =
      BwrapCommandLine(Inputs(), {.argv = {"p"}, .env = {"PWD=/somewhere"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_TRUE(HasSequence(*argv, {"--pwd", "/somewhere", "--", "p"}));
}

TEST(CommandLineTest, AHomeUnderTmpIsADirectoryInTheTmpfsAndTheWorkingDirectory) {
  const StatusOr<std::vector<std::string>> argv =
      BwrapCommandLine(Inputs(), {.argv = {"p"}, .env = {"HOME=/tmp/azmcp-home"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_TRUE(HasSequence(*argv, {"--dir", "/tmp/azmcp-home"}));
  EXPECT_TRUE(HasSequence(*argv, {"--chdir", "/tmp/azmcp-home"}));
}

// The sandbox's own directories, kept across its execs, in place of fresh tmpfs.
TEST(CommandLineTest, TheSandboxsDirectoriesAreBoundAtTmpAndAHomeElsewhere) {
  CommandLineInputs in = Inputs();
  in.tmp_dir = "/state/sandboxes/1/tmp";
  in.home_dir = "/state/sandboxes/1/home";
  const StatusOr<std::vector<std::string>> argv =
      BwrapCommandLine(in, {.argv = {"p"}, .env = {"HOME=/home/sandbox"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_TRUE(HasSequence(*argv, {"--bind", "/state/sandboxes/1/tmp", "/tmp"}));
  EXPECT_TRUE(HasSequence(*argv, {"--bind", "/state/sandboxes/1/home", "/home/sandbox"}));
  EXPECT_THAT(*argv, Not(Contains("--tmpfs")));
  EXPECT_TRUE(HasSequence(*argv, {"--chdir", "/home/sandbox"}));
}

TEST(CommandLineTest, ClosedEgressHasNoSocketCaVariablesOrForwarder) {
  CommandLineInputs in = Inputs();
  in.egress = false;
  const StatusOr<std::vector<std::string>> argv =
      BwrapCommandLine(in, {.argv = {"p"}, .env = {"A=1"}});
  ASSERT_THAT(argv.status(), IsOk());
  for (const char* absent : {"HTTPS_PROXY", "SSL_CERT_FILE", "--forward", kRunDir}) {
    EXPECT_THAT(*argv, Not(Contains(absent)));
  }
  EXPECT_THAT(*argv, Not(Contains(in.egress_socket)));
  EXPECT_THAT(*argv, Not(Contains(in.egress_ca_file)));
  EXPECT_THAT(*argv, Contains("--unshare-net"));
  EXPECT_TRUE(HasSequence(*argv, {"--", kInitPath, "--unset-pwd", "--", "p"}));
  EXPECT_EQ(std::count(argv->begin(), argv->end(), "--setenv"), 1);
}

TEST(CommandLineTest, AHomeElsewhereGetsItsOwnTmpfs) {
  const StatusOr<std::vector<std::string>> argv =
      BwrapCommandLine(Inputs(), {.argv = {"p"}, .env = {"HOME=/home/sandbox"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_TRUE(HasSequence(*argv, {"--tmpfs", "/home/sandbox"}));
}

TEST(CommandLineTest, WithoutHomeTheProgramStartsInTmp) {
  const StatusOr<std::vector<std::string>> argv = BwrapCommandLine(Inputs(), {.argv = {"p"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_TRUE(HasSequence(*argv, {"--chdir", "/tmp"}));
}

TEST(CommandLineTest, RefusesHomesItCannotMountSafely) {
  for (const char* home : {"HOME=relative", "HOME=/", "HOME=/tmp", "HOME=/usr/local",
                           "HOME=/etc", "HOME=/run/azure-pricing", "HOME=/tmp/../etc",
                           "HOME=/tmp//x", "HOME=/tmp/x/", "HOME=/proc/1", "HOME=",
                           "HOME=/sbin", "HOME=/lib64", "HOME=/lib/x", "HOME=/lib32"}) {
    EXPECT_THAT(BwrapCommandLine(Inputs(), {.argv = {"p"}, .env = {home}}).status(),
                StatusIs(Outcome::kRefused, kUnusableHome))
        << home;
  }
}

TEST(CommandLineTest, RefusesARequestThatSetsTheEgressVariables) {
  for (const char* entry :
       {"HTTPS_PROXY=http://x", "https_proxy=http://x", "SSL_CERT_FILE=/x", "SSL_CERT_DIR=/x"}) {
    EXPECT_THAT(BwrapCommandLine(Inputs(), {.argv = {"p"}, .env = {entry}}).status(),
                StatusIs(Outcome::kRefused, kEgressVariableInEnv))
        << entry;
  }
}

TEST(CommandLineTest, RefusesMalformedEnvironmentEntriesAndAnEmptyArgv) {
  for (const std::string& entry : {std::string("NOEQUALS"), std::string("=value"),
                                  std::string("HOME=/usr\0x", 11),
                                  std::string("https_proxy\0x=y", 16)}) {
    EXPECT_THAT(BwrapCommandLine(Inputs(), {.argv = {"p"}, .env = {entry}}).status(),
                StatusIs(Outcome::kRefused, kMalformedEnv));
  }
  EXPECT_THAT(BwrapCommandLine(Inputs(), {.argv = {"p", std::string("a\0b", 3)}}).status(),
              StatusIs(Outcome::kRefused, kArgvContainsNul));
  EXPECT_THAT(BwrapCommandLine(Inputs(), {}).status(),
              StatusIs(Outcome::kRefused, kInvalidSpec));
}

TEST(CommandLineTest, TheWeakeningsChangeWhatTheyName) {
  CommandLineInputs in = Inputs();
  in.weakenings.share_network = true;
  in.weakenings.no_pid_namespace = true;
  in.weakenings.shared_tmp = "/host/tmp";
  const StatusOr<std::vector<std::string>> argv = BwrapCommandLine(in, {.argv = {"p"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_THAT(*argv, Not(Contains("--unshare-net")));
  EXPECT_THAT(*argv, Not(Contains("--unshare-pid")));
  EXPECT_TRUE(HasSequence(*argv, {"--bind", "/host/tmp", "/tmp"}));
}

TEST(CommandLineTest, TheLaterWeakeningsChangeWhatTheyName) {
  CommandLineInputs in = Inputs();
  in.tmp_dir = "/state/sandboxes/1/tmp";
  in.weakenings.shared_ipc = true;
  in.weakenings.no_clearenv = true;
  in.weakenings.host_root_visible = true;
  in.weakenings.signal_exit_raw = true;
  const StatusOr<std::vector<std::string>> argv = BwrapCommandLine(in, {.argv = {"p"}});
  ASSERT_THAT(argv.status(), IsOk());
  EXPECT_THAT(*argv, Not(Contains("--unshare-ipc")));
  EXPECT_THAT(*argv, Not(Contains("--clearenv")));
  EXPECT_TRUE(HasSequence(*argv, {kSignalExitRawFlag, "--unset-pwd", "--", "p"}));
  // The host's root is mounted after /tmp, or /tmp's bind would hide it.
  const auto tmp = std::find(argv->begin(), argv->end(), in.tmp_dir);
  const auto host_root = std::find(argv->begin(), argv->end(), kHostRootInside);
  ASSERT_NE(host_root, argv->end());
  EXPECT_TRUE(HasSequence(*argv, {"--ro-bind", "/", kHostRootInside}));
  EXPECT_LT(tmp, host_root);
}

}  // namespace
}  // namespace azure_pricing::sandbox::bwrap
