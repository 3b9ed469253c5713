// Replay mode of the fake price API: recorded exchanges served back by request target, so a test
// can put the real API's own answers (or any hand-picked ones) behind the egress proxy and show
// exactly which requests were not recorded.
//
// The file is JSON Lines, one exchange a line:
//   {"target": "/api/retail/prices?currencyCode=USD&$filter=...", "status": 200,
//    "body": "<response body text>", "content_type": "application/json; charset=utf-8"}
// `content_type` is optional. A target matches byte for byte (path and query, as received).
//
//   ReplayLine where;
//   StatusOr<Replay> replay = ParseReplay(text, &where);
//   std::optional<RecordedAnswer> a = replay->Next("/api/retail/prices?...");
#ifndef FAKES_PRICES_SERVER_REPLAY_H_
#define FAKES_PRICES_SERVER_REPLAY_H_

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::fakes::prices {

// Reason codes of a replay file ParseReplay refuses, as program errors (ProgramError()).
inline constexpr Reason kReplayNotAnObject = "replay_line_not_an_object";
inline constexpr Reason kReplayUnknownKey = "replay_unknown_key";
inline constexpr Reason kReplayBadTarget = "replay_bad_target";
inline constexpr Reason kReplayBadStatus = "replay_bad_status";
inline constexpr Reason kReplayBadBody = "replay_bad_body";
inline constexpr Reason kReplayBadContentType = "replay_bad_content_type";
inline constexpr Reason kReplayEmpty = "replay_empty";

inline constexpr char kRecordedContentType[] = "application/json; charset=utf-8";

struct RecordedAnswer {
  int status = 200;
  std::string content_type = kRecordedContentType;
  std::string body;
};

// Where ParseReplay stopped: the 1-based line, kept out of the Status, whose message is fixed.
struct ReplayLine {
  size_t line = 0;
};

class Replay {
 public:
  // The answer for `target`: its recorded answers in order, the last one repeating; nullopt when
  // nothing was recorded for it. Not thread-safe; the server serializes calls.
  std::optional<RecordedAnswer> Next(std::string_view target);
  size_t exchanges() const { return exchanges_; }
  size_t targets() const { return by_target_.size(); }

 private:
  friend StatusOr<Replay> ParseReplay(std::string_view text, ReplayLine* where);
  struct Recorded {
    std::vector<RecordedAnswer> answers;
    size_t served = 0;
  };
  std::map<std::string, Recorded, std::less<>> by_target_;
  size_t exchanges_ = 0;
};

// Blank lines are skipped; a file with no exchange is refused, as replaying nothing is a mistake.
StatusOr<Replay> ParseReplay(std::string_view text, ReplayLine* where);

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_REPLAY_H_
