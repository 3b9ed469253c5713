// The transcripts of the two PROTOCOL.md files, line by line, each with the direction and op that
// choose its schema (ProtocolSchemas::Validate). One reading for every test that replays them:
// validator_test and the JSON Schema cross-check (conformance/json_schema).
#ifndef CONFORMANCE_PROTOCOL_SCHEMA_TRANSCRIPT_H_
#define CONFORMANCE_PROTOCOL_SCHEMA_TRANSCRIPT_H_

#include <string>
#include <string_view>
#include <vector>

#include "conformance/protocol_schema/validator.h"

namespace azure_pricing::conformance::protocol_schema {

struct TranscriptLine {
  char side;  // '>' or '<', as PROTOCOL.md writes it
  std::string text;
};

// The lines of a PROTOCOL.md's code blocks that are transcript lines ("> {...}", "< {...}").
std::vector<TranscriptLine> TranscriptLines(std::string_view protocol_md);

struct DirectedLine {
  TranscriptLine line;
  LineDirection direction;
  std::string op;  // for an answer, the op of the request it answers; "" for a request
};

// Who wrote each line and what it answers. '>' is what the suite or the gate wrote: the backend
// protocol's requests; the testee protocol's gate messages and answers to callbacks. An answer
// answers the last request from the other side.
std::vector<DirectedLine> Directed(Protocol protocol, const std::vector<TranscriptLine>& lines);

}  // namespace azure_pricing::conformance::protocol_schema

#endif  // CONFORMANCE_PROTOCOL_SCHEMA_TRANSCRIPT_H_
