// The backend protocol itself, before any probe: a fresh instance of the adapter is sent lines a
// well-behaved client never sends (malformed, unknown members, seq missing, out of order or
// replayed, an unknown sandbox, a request after stop), and each answer is judged against
// PROTOCOL.md's error codes. The suite's own client sends only good lines in order, so without
// these an adapter that accepts anything would pass.
#include <signal.h>

#include <map>
#include <optional>
#include <string>

#include "conformance/line_protocol/child.h"
#include "conformance/line_protocol/line_io.h"
#include "conformance/backend/protocol/protocol.h"
#include "conformance/backend/suite_internal.h"

namespace azure_pricing::conformance::backend::internal {
namespace {

using Json = nlohmann::json;
namespace bp = conformance::backend::protocol;
namespace lp = conformance::line_protocol;

constexpr auto kAnswerWait = std::chrono::seconds(60);
constexpr auto kQuietWait = std::chrono::seconds(2);
constexpr auto kExitWait = std::chrono::seconds(5);
constexpr size_t kMaxLine = 16u << 20;

// One adapter process spoken to line by line; killed and reaped however the session ends.
class RawAdapter {
 public:
  explicit RawAdapter(const AdapterCommand& command) {
    started_ = lp::SpawnPiped(command.argv, command.env, command.working_directory, child_);
    if (started_) reader_.emplace(child_.from_child, kMaxLine);
  }
  ~RawAdapter() { lp::KillAndReap(child_); }
  bool started() const { return started_; }

  // The answer line to `line`, or nullopt (with what happened in `why`).
  std::optional<std::string> Exchange(const std::string& line, std::string* why,
                                      std::chrono::seconds wait = kAnswerWait) {
    const lp::Clock::time_point deadline = lp::Clock::now() + wait;
    if (!lp::WriteAll(child_.to_child, line + "\n", deadline)) {
      *why = "the adapter did not read the line (it exited or closed stdin)";
      return std::nullopt;
    }
    std::string answer;
    switch (reader_->Next(answer, deadline)) {
      case lp::ReadResult::kLine:
        return answer;
      case lp::ReadResult::kTimeout:
        *why = "no answer within " + std::to_string(wait.count()) + " s";
        return std::nullopt;
      case lp::ReadResult::kTooLong:
        *why = "an answer line longer than 16 MiB";
        return std::nullopt;
      case lp::ReadResult::kEof:
      case lp::ReadResult::kError:
        break;
    }
    *why = "the adapter's stdout ended";
    return std::nullopt;
  }
  bool ExitedWithin(std::chrono::seconds wait) {
    return child_.process.ExitedBy(lp::Clock::now() + wait);
  }

 private:
  lp::PipedChild child_;
  bool started_ = false;
  std::optional<lp::LineReader> reader_;
};

std::string Hello(int seq, const std::string& version = bp::kProtocolVersion) {
  return Json{{"seq", seq}, {"op", "hello"}, {"protocol", version}}.dump();
}

std::string Dispose(int seq, const std::string& sandbox) {
  return Json{{"seq", seq}, {"op", "dispose"}, {"sandbox", sandbox}}.dump();
}

// The acquire line the suite's own client would send for the tool's spec.
std::string Acquire(int seq, const std::string& run_id) {
  std::string line = bp::EncodeRequest(
      {.seq = seq,
       .body = bp::AcquireRequest{.spec = SuiteSpec(),
                                  .key = {"backend-suite", run_id, run_id + "-protocol"}}});
  if (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

// A member's text, or `absent` when it is missing or not a string: a peer's wrong type must not
// throw here.
std::string TextOf(const Json& object, const char* key, const std::string& absent = "?") {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : absent;
}

bool AnsweredOk(const Json& answer) {
  const auto it = answer.find("ok");
  return it != answer.end() && it->is_boolean() && it->get<bool>();
}

// "seq 3, refused/not_started" for what an answer says; the raw line never goes in a report.
std::string Summarize(const Json& answer) {
  std::string out = "seq " + (answer.contains("seq") ? answer["seq"].dump() : "absent");
  if (AnsweredOk(answer)) return out + ", ok";
  const auto error = answer.find("error");
  const Json none = Json::object();
  const Json& e = error != answer.end() && error->is_object() ? *error : none;
  return out + ", " + TextOf(e, "outcome") + "/" + TextOf(e, "reason");
}

// Judges one error answer: its shape (PROTOCOL.md, Answers), then its seq (null for Json()) and
// its refused/<reason>. The reason is compared as sent, not as the suite's client maps it.
Observation ExpectRefusal(const std::optional<std::string>& line, const std::string& why,
                          const Json& seq, const std::string& reason) {
  const std::string wanted = "seq " + seq.dump() + ", refused/" + reason;
  if (!line) return Fail(why);
  const Json answer = Json::parse(*line, nullptr, false);
  if (!answer.is_object()) return Fail("an answer that is not a JSON object");
  if (AnsweredOk(answer)) return Fail(Summarize(answer) + " (wanted " + wanted + ")");
  // Any op: an error answer's shape is the same for every one.
  if (!bp::DecodeResponse(*line, bp::Op::kDispose).ok()) {
    return Fail(Summarize(answer) + " in an answer without the error shape (\"ok\": false, "
                "\"error\" with outcome, reason and message; wanted " + wanted + ")");
  }
  const std::string got = Summarize(answer);
  if (got != wanted) return Fail(got + " (wanted " + wanted + ")");
  return Pass(got);
}

using Session = std::map<std::string, Observation>;

// Lines before hello, malformed and unknown ones; every answer must still come, in order.
void Opening(RawAdapter& a, Session& out) {
  std::string why;
  out["protocol.before_hello"] =
      ExpectRefusal(a.Exchange(Dispose(1, "x"), &why), why, 1, bp::kNotStarted);
  out["protocol.version_mismatch"] = ExpectRefusal(
      a.Exchange(Hello(2, "azure-pricing-backend/0"), &why), why, 2, bp::kProtocolMismatch);
  const std::optional<std::string> hello = a.Exchange(Hello(3), &why);
  const Json hello_answer = hello ? Json::parse(*hello, nullptr, false) : Json();
  out["protocol.second_hello"] =
      !hello_answer.is_object() || !AnsweredOk(hello_answer)
          ? Fail("hello (after a refused request and a refused version) was not answered ok")
          : ExpectRefusal(a.Exchange(Hello(4), &why), why, 4, bp::kAlreadyStarted);
  out["protocol.malformed_line"] =
      ExpectRefusal(a.Exchange("this is not json", &why), why, Json(), bp::kMalformedMessage);
  // Invalid UTF-8 makes the line no JSON text at all, so its seq cannot be read.
  out["protocol.invalid_utf8"] = ExpectRefusal(
      a.Exchange("{\"seq\":5,\"op\":\"dispose\",\"sandbox\":\"\xff\"}", &why), why, Json(),
      bp::kMalformedMessage);
  out["protocol.seq_missing"] = ExpectRefusal(
      a.Exchange(R"({"op":"dispose","sandbox":"x"})", &why), why, Json(), bp::kMalformedMessage);
  out["protocol.unknown_member"] = ExpectRefusal(
      a.Exchange(R"({"seq":6,"op":"dispose","sandbox":"x","force":true})", &why), why, 6,
      bp::kMalformedMessage);
  out["protocol.unknown_op"] =
      ExpectRefusal(a.Exchange(R"({"seq":7,"op":"launch"})", &why), why, 7, bp::kUnknownOp);
}

// A line is judged whole before it is acted on: a member missing or of the wrong type is
// malformed_message even where the sandbox it names is unknown too.
void Judged(RawAdapter& a, Session& out) {
  std::string why;
  Observation missing = ExpectRefusal(
      a.Exchange(R"({"seq":14,"op":"exec_bounded","sandbox":"no-such","env":[],)"
                 R"("timeout_seconds":5,"max_output_bytes":1024})",
                 &why),
      why, 14, bp::kMalformedMessage);
  out["protocol.member_missing"] = missing;
  out["protocol.wrong_type"] = ExpectRefusal(
      a.Exchange(R"({"seq":15,"op":"dispose","sandbox":5})", &why), why, 15, bp::kMalformedMessage);
}

// The framing's edge lines (PROTOCOL.md, Framing): a repeated member, a lone surrogate escape and
// a seq outside signed 64 bits leave no seq to read; a line over 16 MiB is too long; another
// member out of range is malformed with its seq, before its unknown sandbox. The unreadable seq
// goes last: an adapter that clamps it would refuse every later line as out of order.
void Edges(RawAdapter& a, Session& out) {
  std::string why;
  out["protocol.repeated_member"] = ExpectRefusal(
      a.Exchange(R"({"seq":20,"op":"dispose","sandbox":"x","sandbox":"y"})", &why), why, Json(),
      bp::kMalformedMessage);
  out["protocol.lone_surrogate"] = ExpectRefusal(
      a.Exchange(R"({"seq":21,"op":"dispose","sandbox":"\ud800"})", &why), why, Json(),
      bp::kMalformedMessage);
  const std::string too_long =
      R"({"seq":22,"op":"dispose","sandbox":")" + std::string(kMaxLine, 'x') + "\"}";
  out["protocol.line_too_long"] =
      ExpectRefusal(a.Exchange(too_long, &why), why, Json(), bp::kMessageTooLong);
  Observation range = ExpectRefusal(
      a.Exchange(R"({"seq":23,"op":"exec_bounded","sandbox":"no-such","argv":["/bin/true"],)"
                 R"("env":[],"timeout_seconds":9223372036854775808,"max_output_bytes":1024})",
                 &why),
      why, 23, bp::kMalformedMessage);
  if (range.passed) {
    range = ExpectRefusal(
        a.Exchange(R"({"seq":9223372036854775808,"op":"dispose","sandbox":"x"})", &why), why,
        Json(), bp::kMalformedMessage);
  }
  out["protocol.integer_range"] = range;
}

// Sandboxes that do not exist, seq order, a replay, and a request after stop.
void Closing(Context& ctx, RawAdapter& a, Session& out) {
  std::string why;
  Observation unknown = ExpectRefusal(a.Exchange(Dispose(8, "no-such-sandbox"), &why), why, 8,
                                      bp::kUnknownSandbox);
  if (unknown.passed) {
    const std::string exec = Json{{"seq", 9}, {"op", "exec_bounded"}, {"sandbox", "no-such"},
                                  {"argv", {"/bin/true"}}, {"env", Json::array()},
                                  {"timeout_seconds", 5}, {"max_output_bytes", 1024}}
                                 .dump();
    unknown = ExpectRefusal(a.Exchange(exec, &why), why, 9, bp::kUnknownSandbox);
  }
  out["protocol.unknown_sandbox"] = unknown;
  out["protocol.seq_out_of_order"] =
      ExpectRefusal(a.Exchange(Dispose(5, "x"), &why), why, 5, bp::kOutOfOrder);
  const std::optional<std::string> acquired = a.Exchange(Acquire(10, ctx.run_id), &why);
  const Json acquire = acquired ? Json::parse(*acquired, nullptr, false) : Json();
  const std::string id =
      acquire.is_object() && AnsweredOk(acquire) ? TextOf(acquire, "sandbox", "") : "";
  if (id.empty()) {
    const std::string got = acquire.is_object() ? Summarize(acquire) : why;
    for (const char* probe : {"protocol.seq_replayed", "protocol.after_dispose"}) {
      out[probe] = Fail("the acquire this check needs was not served: " + got);
    }
  } else {
    a.Exchange(Dispose(11, id), &why);
    out["protocol.seq_replayed"] =
        ExpectRefusal(a.Exchange(Dispose(11, id), &why), why, 11, bp::kOutOfOrder);
    out["protocol.after_dispose"] =
        ExpectRefusal(a.Exchange(Dispose(13, id), &why), why, 13, bp::kUnknownSandbox);
  }
  Judged(a, out);
  Edges(a, out);
  const std::optional<std::string> stop = a.Exchange(R"({"seq":30,"op":"stop"})", &why);
  const std::optional<std::string> after =
      stop ? a.Exchange(R"({"seq":31,"op":"stop"})", &why, kQuietWait) : std::nullopt;
  if (!stop) {
    out["protocol.after_stop"] = Fail("stop was not answered: " + why);
  } else if (after) {
    out["protocol.after_stop"] = Fail("a line after stop was answered");
  } else if (!a.ExitedWithin(kExitWait)) {
    out["protocol.after_stop"] = Fail("the adapter still runs 5 s after answering stop");
  } else {
    out["protocol.after_stop"] = Pass("stop answered, nothing more read, the adapter exited");
  }
}

Session RunSession(Context& ctx) {
  Session out;
  RawAdapter adapter(ctx.options.adapter);
  if (!adapter.started()) {
    out["protocol.before_hello"] = Fail("a second instance of the adapter could not be started");
    return out;
  }
  Opening(adapter, out);
  Closing(ctx, adapter, out);
  return out;
}

template <const char* kId>
Observation FromSession(Context& ctx) {
  if (ctx.options.adapter.argv.empty()) {
    return NotApplicable("the backend runs in process: it speaks no protocol");
  }
  if (!ctx.protocol) ctx.protocol = RunSession(ctx);
  const auto it = ctx.protocol->find(kId);
  return it != ctx.protocol->end() ? it->second
                                   : Fail("not judged: the session ended before this check");
}

constexpr char kBeforeHello[] = "protocol.before_hello";
constexpr char kSecondHello[] = "protocol.second_hello";
constexpr char kMalformedLine[] = "protocol.malformed_line";
constexpr char kSeqMissing[] = "protocol.seq_missing";
constexpr char kUnknownMember[] = "protocol.unknown_member";
constexpr char kUnknownOp[] = "protocol.unknown_op";
constexpr char kUnknownSandbox[] = "protocol.unknown_sandbox";
constexpr char kSeqOutOfOrder[] = "protocol.seq_out_of_order";
constexpr char kSeqReplayed[] = "protocol.seq_replayed";
constexpr char kAfterDispose[] = "protocol.after_dispose";
constexpr char kAfterStop[] = "protocol.after_stop";
constexpr char kMemberMissing[] = "protocol.member_missing";
constexpr char kVersionMismatch[] = "protocol.version_mismatch";
constexpr char kInvalidUtf8[] = "protocol.invalid_utf8";
constexpr char kWrongType[] = "protocol.wrong_type";
constexpr char kRepeatedMember[] = "protocol.repeated_member";
constexpr char kLoneSurrogate[] = "protocol.lone_surrogate";
constexpr char kLineTooLong[] = "protocol.line_too_long";
constexpr char kIntegerRange[] = "protocol.integer_range";

}  // namespace

std::vector<ProbeDef> ProtocolProbes() {
  const std::vector<std::string> cites = {"PROFILE-015", "HOST-006"};
  return {
      {{kBeforeHello, cites, "a request before hello is answered refused/not_started"},
       FromSession<kBeforeHello>},
      {{kVersionMismatch, cites,
        "a hello asking for another version is refused/protocol_mismatch and leaves the adapter "
        "unstarted"},
       FromSession<kVersionMismatch>},
      {{kSecondHello, cites, "a second hello is answered refused/already_started"},
       FromSession<kSecondHello>},
      {{kMalformedLine, cites, "a line that is not JSON is answered seq null, refused/malformed_message"},
       FromSession<kMalformedLine>},
      {{kSeqMissing, cites, "a request without seq is answered seq null, refused/malformed_message"},
       FromSession<kSeqMissing>},
      {{kInvalidUtf8, cites,
        "a line that is not UTF-8 is answered seq null, refused/malformed_message"},
       FromSession<kInvalidUtf8>},
      {{kUnknownMember, cites, "a request with an unknown member is refused/malformed_message"},
       FromSession<kUnknownMember>},
      {{kUnknownOp, cites, "an op the protocol does not have is refused/unknown_op"},
       FromSession<kUnknownOp>},
      {{kUnknownSandbox, cites, "dispose and exec_bounded of an unknown sandbox are refused/unknown_sandbox"},
       FromSession<kUnknownSandbox>},
      {{kSeqOutOfOrder, cites, "a seq lower than the last one read is refused/out_of_order"},
       FromSession<kSeqOutOfOrder>},
      {{kSeqReplayed, cites, "a replayed seq is refused/out_of_order and not acted on"},
       FromSession<kSeqReplayed>},
      {{kAfterDispose, cites, "a disposed sandbox's id is unknown: refused/unknown_sandbox"},
       FromSession<kAfterDispose>},
      {{kMemberMissing, cites,
        "a request missing a member is refused/malformed_message, even naming an unknown sandbox"},
       FromSession<kMemberMissing>},
      {{kWrongType, cites, "a member of the wrong type is refused/malformed_message"},
       FromSession<kWrongType>},
      {{kRepeatedMember, cites,
        "a line with a repeated member is answered seq null, refused/malformed_message"},
       FromSession<kRepeatedMember>},
      {{kLoneSurrogate, cites,
        "a line with a lone surrogate escape is answered seq null, refused/malformed_message"},
       FromSession<kLoneSurrogate>},
      {{kLineTooLong, cites, "a line over 16 MiB is answered seq null, refused/message_too_long"},
       FromSession<kLineTooLong>},
      {{kIntegerRange, cites,
        "an integer outside signed 64 bits is refused/malformed_message, never clamped (seq null "
        "when it is the seq)"},
       FromSession<kIntegerRange>},
      {{kAfterStop, cites, "after answering stop the adapter reads nothing more and exits"},
       FromSession<kAfterStop>},
  };
}

}  // namespace azure_pricing::conformance::backend::internal
