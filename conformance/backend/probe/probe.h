// sandbox_probe's subcommands and the few helpers they share. The probe runs INSIDE a sandbox
// under test and reports what it sees as one JSON object on stdout, so a conformance suite on
// the host can judge the sandbox by reading stdout alone.
#ifndef CONFORMANCE_BACKEND_PROBE_PROBE_H_
#define CONFORMANCE_BACKEND_PROBE_PROBE_H_

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::conformance::backend::probe {

// ordered_json: keys come out in the order this file documents them (and `stat` in argv order).
using Json = nlohmann::ordered_json;
using Args = std::vector<std::string>;  // the arguments after the subcommand's name

// A subcommand returns its exit status, or nullopt when its arguments do not read (main then
// prints that subcommand's usage line and exits with kUsageExit).
using Command = std::optional<int> (*)(const Args&);
inline constexpr int kUsageExit = 64;

// One JSON object and a newline on stdout, flushed. Invalid UTF-8 (an argument, a file, an
// environment value) becomes U+FFFD instead of throwing: the probe must always answer.
void PrintJson(const Json& value);

// A whole decimal number in [min, max], nothing else (no sign games, no trailing bytes).
std::optional<long long> ParseInteger(std::string_view text, long long min, long long max);
// A non-negative decimal number of seconds (fractions allowed, at most a day).
std::optional<double> ParseSeconds(std::string_view text);
// Sleeps the whole time even when a signal interrupts the sleep.
void SleepSeconds(double seconds);

// One deadline for a multi-step operation, so the steps share a budget instead of each having
// its own.
class Deadline {
 public:
  explicit Deadline(int total_ms)
      : end_(std::chrono::steady_clock::now() + std::chrono::milliseconds(total_ms)) {}
  // Milliseconds left, never negative; what poll(2) takes.
  int RemainingMs() const;
  bool Passed() const { return RemainingMs() == 0; }

 private:
  std::chrono::steady_clock::time_point end_;
};

// process_commands.cc
std::optional<int> ArgvCommand(const Args& args);
std::optional<int> EnvCommand(const Args& args);
std::optional<int> CwdCommand(const Args& args);
std::optional<int> ExitCommand(const Args& args);
std::optional<int> LingerCommand(const Args& args);
std::optional<int> TreeCommand(const Args& args);
std::optional<int> DaemonCommand(const Args& args);
std::optional<int> CloseStdoutCommand(const Args& args);
std::optional<int> FloodCommand(const Args& args);
std::optional<int> ListenCommand(const Args& args);
std::optional<int> SignalCommand(const Args& args);

// file_commands.cc
std::optional<int> WriteFileCommand(const Args& args);
std::optional<int> ReadFileCommand(const Args& args);
std::optional<int> StatCommand(const Args& args);
std::optional<int> ProcsCommand(const Args& args);
std::optional<int> NetdevsCommand(const Args& args);
std::optional<int> FindNamesCommand(const Args& args);
std::optional<int> MountsCommand(const Args& args);

// ipc_commands.cc
std::optional<int> IpcCreateCommand(const Args& args);
std::optional<int> IpcLookCommand(const Args& args);

// net_commands.cc
std::optional<int> ConnectCommand(const Args& args);
std::optional<int> HttpsGetCommand(const Args& args);

}  // namespace azure_pricing::conformance::backend::probe

#endif  // CONFORMANCE_BACKEND_PROBE_PROBE_H_
