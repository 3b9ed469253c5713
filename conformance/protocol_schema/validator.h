// Every line of the two line protocols checked against their JSON Schemas (draft 2020-12): the
// backend protocol's (conformance/backend/protocol/schema) and the testee protocol's
// (conformance/testee/schema), one file per message kind. The files decide everything: which
// ops exist, which members each message has, their types and ranges. A member added to a schema
// is checked from then on, with no change here.
//
//   StatusOr<ProtocolSchemas> schemas = ProtocolSchemas::Load();  // from the runfiles
//   LineRecorder recorder(*schemas);
//   AdapterBackend::Start(argv, env, {}, "", recorder.ObserverFor(Protocol::kBackend));
//   ...
//   std::printf("%s\n", SummaryLine(recorder.tally()).c_str());
//
// A violation says where (a JSON path) and which rule, never what the line held: lines carry
// programs' output and may carry secrets.
#ifndef CONFORMANCE_PROTOCOL_SCHEMA_VALIDATOR_H_
#define CONFORMANCE_PROTOCOL_SCHEMA_VALIDATOR_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/line_protocol/line_io.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::protocol_schema {

using conformance::line_protocol::LineDirection;

enum class Protocol { kBackend, kTestee };

// "backend", "testee".
std::string_view ProtocolName(Protocol protocol);

// Program errors (ProgramError()): the schemas do not load.
inline constexpr Reason kSchemaUnreadable = "protocol_schema_unreadable";
inline constexpr Reason kSchemaInvalid = "protocol_schema_invalid";

// One rule a line breaks.
struct Violation {
  // "/report/tools"; "/" for the line itself. A member name the line chose is shown only when it
  // is a plain identifier, else as <member>.
  std::string path;
  // What is wrong and the keyword or rule, from the schema's text alone:
  // `is less than the minimum 0 (minimum)`, `unknown member (additionalProperties)`.
  std::string rule;
};

struct LineCheck {
  // The schema the line was checked against ("answer.case"), empty when none could be chosen.
  std::string schema;
  std::vector<Violation> violations;
};

class ProtocolSchemas {
 public:
  // Every *.schema.json of the two directories in the runfiles.
  static StatusOr<ProtocolSchemas> Load();
  // Every *.schema.json of these directories. Each file must be a draft 2020-12 schema with a
  // unique $id, a title and a description, using only keywords conformance/json_schema/json_schema.h
  // implements, every $ref resolving.
  static StatusOr<ProtocolSchemas> LoadFrom(const std::string& backend_directory,
                                            const std::string& testee_directory);

  // The schema for a line is chosen by who wrote it and what it is:
  //   backend  kRequestSent     request.OP        kAnswerReceived  answer.OP
  //   testee   kRequestSent     request.OP        kAnswerReceived  answer.OP
  //            kRequestReceived callback.OP       kAnswerSent      callback-answer.OP
  // A request's OP is the one the line names. An answer's is `op`, the request it answers; an
  // answer to an op with no schema of its own (unreadable, unknown) is checked as .error. The
  // framing rules come first: at most 16 MiB, JSON, no member repeated, an object.
  LineCheck Validate(Protocol protocol, LineDirection direction, std::string_view op,
                     std::string_view line) const;

  // How many schema files were loaded.
  size_t size() const;

 private:
  struct Loaded;
  explicit ProtocolSchemas(std::shared_ptr<const Loaded> loaded) : loaded_(std::move(loaded)) {}

  std::shared_ptr<const Loaded> loaded_;  // immutable: Validate is safe from any thread
};

// Counts the lines it is shown and those that break a rule, and describes the first few of
// those. Safe from any thread.
class LineRecorder {
 public:
  explicit LineRecorder(ProtocolSchemas schemas, size_t described = 5);

  void Record(Protocol protocol, LineDirection direction, std::string_view op,
              std::string_view line);
  // Records a client's lines as `protocol`'s. The recorder must outlive every client given it.
  conformance::line_protocol::LineObserver ObserverFor(Protocol protocol);

  struct Tally {
    uint64_t lines = 0;
    uint64_t violations = 0;  // lines that break at least one rule
    std::map<Protocol, uint64_t> lines_by_protocol;
    // One per line, for the first lines that break a rule:
    // `testee answer.case (line 12): /report/tools: is not of type "integer" (type)`.
    std::vector<std::string> described;
  };
  Tally tally() const;
  // Adds lines checked elsewhere (a gate suite's child process) to this recorder's tally; their
  // described lines follow this recorder's, as many as it still describes.
  void Merge(const Tally& other);

 private:
  const ProtocolSchemas schemas_;
  const size_t described_;
  mutable std::mutex mu_;
  Tally tally_;
};

// The gate's one line:
// `protocol validation: 4,212 lines checked against the JSON Schemas (backend protocol 1,200,
// testee protocol 3,012), 0 violations`.
std::string SummaryLine(const LineRecorder::Tally& tally);

}  // namespace azure_pricing::conformance::protocol_schema

#endif  // CONFORMANCE_PROTOCOL_SCHEMA_VALIDATOR_H_
