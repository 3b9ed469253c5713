// fake_adapter: an adapter program for the protocol's own tests. It serves the scripted
// fakes::sandbox::FakeBackend through ServeBackend, behind a relay that can misbehave on cue
// (hang, exit, answer junk, answer with the wrong seq) and can record the conversation.
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>

#include "conformance/backend/protocol/protocol.h"
#include "conformance/backend/protocol/server.h"
#include "conformance/line_protocol/line_io.h"
#include "fakes/sandbox/fake_backend.h"
#include "ref/base/flags.h"

namespace azure_pricing::conformance::backend::protocol {
namespace {

using line_protocol::LineReader;
using line_protocol::ReadResult;
using line_protocol::WriteAll;

constexpr char kUsage[] =
    "usage: fake_adapter [options]\n"
    "Serves the scripted fake sandbox backend over the backend protocol on stdin/stdout.\n"
    "Identity:     --name NAME (fake) --version V (0)\n"
    "Declaration:  starts from the pricing-capable one (posix, container, EXEC EGRESS_METHODS,\n"
    "              closed+allowlist, GET, bounded exec); each repeatable flag replaces a field:\n"
    "              --isolation NAME --capability NAME... --egress-mode NAME...\n"
    "              --egress-method TOKEN... --every-method --no-bounded-exec\n"
    "Every call:   --stdout TEXT --stderr TEXT --exit N --delay-ms N (virtual: at or past the\n"
    "              timeout is a timeout) --exec-error --fail-acquire --fail-dispose\n"
    "              --withhold-bounded-exec --accept-redirect\n"
    "Misbehaviour: --fault hang|exit|garbage|wrong-seq at the first request with op\n"
    "              --fault-at OP (hello)\n"
    "Recording:    --transcript FILE appends every line received (> ) and sent (< )\n";

struct Options {
  BackendIdentity identity{"fake", "0"};
  sandbox::BackendDeclaration declaration = fakes::sandbox::PricingCapableDeclaration();
  fakes::sandbox::CallScript script;
  bool withhold_bounded_exec = false;
  bool accept_redirect = false;
  std::string fault;
  std::string fault_at = kOpHello;
  std::string transcript;
};

// The fake backend refuses RedirectEgress, as backend.h's default does; this one accepts it.
class RedirectableFake : public fakes::sandbox::FakeBackend {
 public:
  RedirectableFake(sandbox::BackendDeclaration d, bool accept)
      : FakeBackend(std::move(d)), accept_(accept) {}
  Status RedirectEgress(const sandbox::EgressUpstream& upstream) override {
    if (!accept_) return FakeBackend::RedirectEgress(upstream);
    return OkStatus();
  }

 private:
  bool accept_;
};

template <typename T>
bool ParseSet(const std::vector<std::string>& names, std::optional<T> (*parse)(std::string_view),
              std::set<T>& out) {
  if (names.empty()) return true;
  out.clear();
  for (const std::string& name : names) {
    const std::optional<T> v = parse(name);
    if (!v) return false;
    out.insert(*v);
  }
  return true;
}

bool DeclarationFrom(const base::Flags& flags, sandbox::BackendDeclaration& d) {
  if (auto isolation = flags.Value("--isolation")) {
    const auto parsed = sandbox::ParseIsolation(*isolation);
    if (!parsed) return false;
    d.isolation = *parsed;
  }
  if (!ParseSet(flags.Values("--capability"), sandbox::ParseCapability, d.capabilities) ||
      !ParseSet(flags.Values("--egress-mode"), sandbox::ParseEgress, d.egress_modes)) {
    return false;
  }
  const std::vector<std::string> methods = flags.Values("--egress-method");
  if (!methods.empty())
    d.egress_method_tokens = std::set<std::string>(methods.begin(), methods.end());
  if (flags.Has("--every-method")) d.egress_method_tokens.reset();
  if (flags.Has("--no-bounded-exec")) d.bounded_exec = false;
  return true;
}

bool ScriptFrom(const base::Flags& flags, fakes::sandbox::CallScript& s) {
  s.exec.stdout_bytes = flags.Value("--stdout").value_or("");
  s.exec.stderr_bytes = flags.Value("--stderr").value_or("");
  try {
    s.exec.exit_code = std::stoi(flags.Value("--exit").value_or("0"));
    s.exec.delay_ms = std::stoll(flags.Value("--delay-ms").value_or("0"));
  } catch (const std::exception&) {
    return false;
  }
  s.exec.exec_error = flags.Has("--exec-error");
  s.fail_acquire = flags.Has("--fail-acquire");
  s.fail_dispose = flags.Has("--fail-dispose");
  return true;
}

std::optional<Options> ParseOptions(int argc, char** argv) {
  using base::FlagKind;
  std::string problem;
  StatusOr<base::Flags> flags =
      base::Flags::ParseOrExplain(argc, argv,
                                  {{"--name", FlagKind::kValue},
                                   {"--version", FlagKind::kValue},
                                   {"--isolation", FlagKind::kValue},
                                   {"--capability", FlagKind::kRepeatable},
                                   {"--egress-mode", FlagKind::kRepeatable},
                                   {"--egress-method", FlagKind::kRepeatable},
                                   {"--every-method", FlagKind::kSwitch},
                                   {"--no-bounded-exec", FlagKind::kSwitch},
                                   {"--stdout", FlagKind::kValue},
                                   {"--stderr", FlagKind::kValue},
                                   {"--exit", FlagKind::kValue},
                                   {"--delay-ms", FlagKind::kValue},
                                   {"--exec-error", FlagKind::kSwitch},
                                   {"--fail-acquire", FlagKind::kSwitch},
                                   {"--fail-dispose", FlagKind::kSwitch},
                                   {"--withhold-bounded-exec", FlagKind::kSwitch},
                                   {"--accept-redirect", FlagKind::kSwitch},
                                   {"--fault", FlagKind::kValue},
                                   {"--fault-at", FlagKind::kValue},
                                   {"--transcript", FlagKind::kValue}},
                                  &problem);
  if (!flags.ok()) {
    std::cerr << "fake_adapter: " << problem << "\n" << kUsage;
    return std::nullopt;
  }
  Options o;
  o.identity.name = flags->Value("--name").value_or(o.identity.name);
  o.identity.version = flags->Value("--version").value_or(o.identity.version);
  o.declaration.name = o.identity.name;
  o.withhold_bounded_exec = flags->Has("--withhold-bounded-exec");
  o.accept_redirect = flags->Has("--accept-redirect");
  o.fault = flags->Value("--fault").value_or("");
  o.fault_at = flags->Value("--fault-at").value_or(o.fault_at);
  o.transcript = flags->Value("--transcript").value_or("");
  const bool known_fault = o.fault.empty() || o.fault == "hang" || o.fault == "exit" ||
                           o.fault == "garbage" || o.fault == "wrong-seq";
  if (!known_fault || !DeclarationFrom(*flags, o.declaration) || !ScriptFrom(*flags, o.script)) {
    std::cerr << "fake_adapter: a flag has a value it does not know\n" << kUsage;
    return std::nullopt;
  }
  return o;
}

// The conversation as the adapter saw it, one line per message, for PROTOCOL.md's transcript.
class Transcript {
 public:
  explicit Transcript(const std::string& path)
      : fd_(path.empty() ? -1
                         : open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) {}
  ~Transcript() {
    if (fd_ >= 0) close(fd_);
  }
  void Note(const char* direction, const std::string& line) {
    if (fd_ >= 0) (void)WriteAll(fd_, std::string(direction) + line + "\n", std::nullopt);
  }

 private:
  int fd_;
};

struct Relay {
  const Options& options;
  int to_server;
  LineReader from_server;
  Transcript transcript;
  bool fault_done = false;
};

// Never answers: reads and drops requests until the client goes away (or kills the group).
[[noreturn]] void Hang() {
  LineReader in(0, kMaxLineBytes);
  std::string ignored;
  for (;;) {
    const ReadResult r = in.Next(ignored, std::nullopt);
    if (r != ReadResult::kLine && r != ReadResult::kTooLong) _exit(0);
  }
}

// Forwards one request to the server and returns its answer (empty if the server is gone).
std::string Forward(Relay& relay, const std::string& line) {
  if (!WriteAll(relay.to_server, line + "\n", std::nullopt)) return "";
  std::string answer;
  if (relay.from_server.Next(answer, std::nullopt) != ReadResult::kLine) return "";
  return answer;
}

// Plays the fault for this request: no answer at all, or the line to send back instead.
std::string Misbehave(Relay& relay, const std::string& line) {
  const std::string& fault = relay.options.fault;
  relay.fault_done = true;
  if (fault == "hang") Hang();
  if (fault == "exit") _exit(3);
  if (fault == "garbage") return std::string("this is not a protocol answer");
  nlohmann::json answer = nlohmann::json::parse(Forward(relay, line), nullptr, false);
  if (answer.is_object() && answer["seq"].is_number_integer()) {
    answer["seq"] = answer["seq"].get<int64_t>() + 100;
  }
  return answer.dump();
}

// Relays stdin to the server thread and its answers to stdout; true when stop was answered.
bool RelayLines(Relay& relay) {
  LineReader in(0, 2 * kMaxLineBytes);
  std::string line;
  for (;;) {
    const ReadResult r = in.Next(line, std::nullopt);
    if (r == ReadResult::kTooLong) line = std::string(kMaxLineBytes + 1, 'x');
    if (r != ReadResult::kLine && r != ReadResult::kTooLong) return false;
    relay.transcript.Note("> ", line);
    std::optional<int64_t> seq;
    StatusOr<Request> request = DecodeRequest(line, &seq);
    const bool faulty = request.ok() && !relay.fault_done && !relay.options.fault.empty() &&
                        OpName(OpOf(request->body)) == relay.options.fault_at;
    const std::string answer = faulty ? Misbehave(relay, line) : Forward(relay, line);
    if (answer.empty()) return false;
    relay.transcript.Note("< ", answer);
    if (!WriteAll(1, answer + "\n", std::nullopt)) return false;
    const bool stopped = request.ok() && OpOf(request->body) == Op::kStop &&
                         answer.find("\"ok\":true") != std::string::npos;
    if (stopped) return true;
  }
}

int Run(const Options& options) {
  RedirectableFake backend(options.declaration, options.accept_redirect);
  backend.SetFallback(options.script);
  backend.SetWithholdBoundedExec(options.withhold_bounded_exec);
  int to_server[2], from_server[2];
  if (pipe2(to_server, O_CLOEXEC) != 0 || pipe2(from_server, O_CLOEXEC) != 0) return 2;
  int served = 1;
  std::thread server([&] {
    served = ServeBackend(backend, options.identity, to_server[0], from_server[1]);
    close(from_server[1]);
  });
  Relay relay{options, to_server[1], LineReader(from_server[0], kMaxLineBytes),
              Transcript(options.transcript)};
  (void)RelayLines(relay);
  close(to_server[1]);  // EOF for the server if it is still reading
  server.join();
  return served;
}

}  // namespace
}  // namespace azure_pricing::conformance::backend::protocol

int main(int argc, char** argv) {
  // Answers to a client that went away are dropped, not fatal.
  std::signal(SIGPIPE, SIG_IGN);
  const auto options = azure_pricing::conformance::backend::protocol::ParseOptions(argc, argv);
  if (!options) return 2;
  return azure_pricing::conformance::backend::protocol::Run(*options);
}
