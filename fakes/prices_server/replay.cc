#include "fakes/prices_server/replay.h"

#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "fakes/prices_server/text_lines.h"

namespace azure_pricing::fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kApiPath[] = "/api/retail/prices";

// A replay file the fake cannot serve is the fake's own error, never a tool outcome.
Status Refused(Reason reason, const char* message) { return ProgramError(reason, message); }

// Only the API's own path is served by the fake, so a target elsewhere could never match.
bool ServableTarget(const std::string& target) {
  const std::string_view path = std::string_view(target).substr(0, target.find('?'));
  return path == kApiPath;
}

StatusOr<std::pair<std::string, RecordedAnswer>> ReadExchange(std::string_view row) {
  const Json line = Json::parse(row, nullptr, false);
  if (line.is_discarded() || !line.is_object()) {
    return Refused(kReplayNotAnObject, "the line is not a JSON object");
  }
  static const std::set<std::string> kKeys = {"target", "status", "body", "content_type"};
  for (const auto& [key, value] : line.items()) {
    if (!kKeys.count(key)) {
      return Refused(kReplayUnknownKey,
                     "the line has a key other than target, status, body and content_type");
    }
  }
  auto target = line.find("target");
  if (target == line.end() || !target->is_string() || !ServableTarget(target->get<std::string>())) {
    return Refused(kReplayBadTarget, "\"target\" must be a string /api/retail/prices[?query]");
  }
  auto status = line.find("status");
  if (status == line.end() || !status->is_number_integer() || status->get<int64_t>() < 100 ||
      status->get<int64_t>() > 599) {
    return Refused(kReplayBadStatus, "\"status\" must be an integer from 100 to 599");
  }
  auto body = line.find("body");
  if (body == line.end() || !body->is_string()) {
    return Refused(kReplayBadBody, "\"body\" must be a string (the response body text)");
  }
  RecordedAnswer answer;
  answer.status = static_cast<int>(status->get<int64_t>());
  answer.body = body->get<std::string>();
  if (auto type = line.find("content_type"); type != line.end()) {
    if (!type->is_string() || type->get<std::string>().empty()) {
      return Refused(kReplayBadContentType, "\"content_type\" must be a non-empty string");
    }
    answer.content_type = type->get<std::string>();
  }
  return std::make_pair(target->get<std::string>(), std::move(answer));
}

}  // namespace

std::optional<RecordedAnswer> Replay::Next(std::string_view target) {
  auto it = by_target_.find(target);
  if (it == by_target_.end()) return std::nullopt;
  Recorded& r = it->second;
  const size_t i = std::min(r.served, r.answers.size() - 1);
  ++r.served;
  return r.answers[i];
}

StatusOr<Replay> ParseReplay(std::string_view text, ReplayLine* where) {
  Replay replay;
  Status failed = OkStatus();
  ForEachTextLine(text, [&](size_t line, std::string_view row) {
    StatusOr<std::pair<std::string, RecordedAnswer>> exchange = ReadExchange(row);
    if (!exchange.ok()) {
      if (where != nullptr) where->line = line;
      failed = exchange.status();
      return false;
    }
    replay.by_target_[exchange->first].answers.push_back(std::move(exchange->second));
    ++replay.exchanges_;
    return true;
  });
  if (!failed.ok()) return failed;
  if (replay.exchanges_ == 0) {
    return Refused(kReplayEmpty, "the file holds no recorded exchange");
  }
  return replay;
}

}  // namespace azure_pricing::fakes::prices
