#include "conformance/protocol_schema/validator.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "conformance/backend/protocol/protocol.h"
#include "conformance/line_protocol/wire_json.h"
#include "conformance/json_schema/json_schema.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::protocol_schema {
namespace {

using nlohmann::ordered_json;

constexpr char kDraft[] = "https://json-schema.org/draft/2020-12/schema";
constexpr std::string_view kSuffix = ".schema.json";
// Violations described per line; a line that breaks more says how many more.
constexpr size_t kViolationsPerLine = 3;

Status Unreadable(const std::string& what) {
  return ProgramError(kSchemaUnreadable, what);
}
Status Invalid(const std::string& what) { return ProgramError(kSchemaInvalid, what); }

// What the protocol calls a line of this direction: the first part of its schema's file name.
// Empty for a line the protocol does not have (the backend's client answers no requests).
std::string KindOf(Protocol protocol, LineDirection direction) {
  switch (direction) {
    case LineDirection::kRequestSent:
      return "request";
    case LineDirection::kAnswerReceived:
      return "answer";
    case LineDirection::kRequestReceived:
      return protocol == Protocol::kTestee ? "callback" : "";
    case LineDirection::kAnswerSent:
      return protocol == Protocol::kTestee ? "callback-answer" : "";
  }
  return "";
}

bool IsRequest(LineDirection direction) {
  return direction == LineDirection::kRequestSent || direction == LineDirection::kRequestReceived;
}

// A path segment fit to print: an array index or a member name that is a plain identifier. The
// line chose its member names, and they may carry anything.
std::string Printable(const std::string& segment) {
  const bool plain = !segment.empty() && segment.size() <= 64 &&
                     std::all_of(segment.begin(), segment.end(), [](char c) {
                       return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '$';
                     });
  return plain ? segment : "<member>";
}

Violation Described(const SchemaProblem& problem) {
  std::vector<std::string> path;
  for (const std::string& segment : problem.path) path.push_back(Printable(segment));
  if (!problem.member.empty()) {
    path.push_back(Printable(problem.member));
    return {PathText(path), "unknown member (additionalProperties)"};
  }
  const std::string rule = problem.keyword == "$schema" ? "the schema itself" : problem.keyword;
  return {PathText(path), problem.what + " (" + rule + ")"};
}

// The framing rules every line keeps before any schema applies; the object, or nullopt after
// saying what is wrong.
std::optional<ordered_json> Framed(std::string_view line, std::vector<Violation>& out) {
  if (line.size() > conformance::line_protocol::kMaxLineBytes) {
    out.push_back({"/", "is longer than 16 MiB (framing)"});
    return std::nullopt;
  }
  std::optional<ordered_json> doc = conformance::line_protocol::ParseStrict(line);
  if (!doc) {
    const bool json = ordered_json::accept(line.begin(), line.end());
    out.push_back({"/", json ? "repeats a member within one object (framing)"
                             : "is not JSON, or not UTF-8 (framing)"});
    return std::nullopt;
  }
  if (!doc->is_object()) {
    out.push_back({"/", "is not a JSON object (framing)"});
    return std::nullopt;
  }
  return doc;
}

// 1234567 as "1,234,567". Built by appending, not by inserting into the digits: at -O2 gcc 12
// reports -Werror=restrict on the memcpy that std::string::insert inlines (a false positive, GCC
// bug 105329: it cannot see the copy is bounded), and appending leaves it no copy to suspect.
std::string Grouped(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string grouped;
  grouped.reserve(digits.size() + digits.size() / 3);
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) grouped.push_back(',');
    grouped.push_back(digits[i]);
  }
  return grouped;
}

StatusOr<std::vector<std::string>> SchemaFiles(const std::string& directory) {
  std::vector<std::string> files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().filename().string().ends_with(kSuffix)) files.push_back(it->path().string());
  }
  if (ec) return Unreadable("cannot list the schema directory " + directory);
  if (files.empty()) return Unreadable("no *.schema.json in " + directory);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

struct ProtocolSchemas::Loaded {
  SchemaRegistry registry;                                      // every file, by its $id
  std::map<std::pair<Protocol, std::string>, std::string> ids;  // ("answer.case") to its $id

  bool Has(Protocol protocol, const std::string& name) const {
    return ids.count({protocol, name}) != 0;
  }

  // One file: a draft 2020-12 schema with a unique $id, a title and a description.
  Status Add(Protocol protocol, const std::string& path) {
    StatusOr<std::string> text = base::ReadFile(path);
    if (!text.ok()) return Unreadable("cannot read " + path + ": " + text.status().message());
    const ordered_json doc = ordered_json::parse(*text, nullptr, /*allow_exceptions=*/false);
    const auto is_string = [&doc](const char* key) {
      return doc.is_object() && doc.contains(key) && doc[key].is_string();
    };
    if (!is_string("$schema") || doc["$schema"] != kDraft || !is_string("$id") ||
        !is_string("title") || !is_string("description")) {
      return Invalid(path + " is not a draft 2020-12 schema with $id, title and description");
    }
    const std::string id = doc["$id"].get<std::string>();
    if (!registry.emplace(id, doc).second) return Invalid(path + " repeats the $id " + id);
    const std::string file = std::filesystem::path(path).filename().string();
    ids[{protocol, file.substr(0, file.size() - kSuffix.size())}] = id;
    return OkStatus();
  }

  // A keyword the validator does not implement, or a $ref that resolves nowhere, anywhere in
  // any file: found now rather than when a line first reaches it.
  Status CheckAll() const {
    for (const auto& [id, schema] : registry) {
      const std::vector<SchemaProblem> problems = CheckSchema(schema, registry);
      if (!problems.empty()) {
        return Invalid(id + " at " + PathText(problems.front().path) + ": " +
                       problems.front().what);
      }
    }
    return OkStatus();
  }

  // The ops a kind of line may name, for a message that names another.
  std::string Ops(Protocol protocol, const std::string& kind) const {
    std::string out;
    for (const auto& [key, id] : ids) {
      if (key.first != protocol || !key.second.starts_with(kind + ".")) continue;
      out += (out.empty() ? "" : ", ") + key.second.substr(kind.size() + 1);
    }
    return out;
  }

  // The schema a well-framed line is checked against; "" after saying why there is none.
  std::string SchemaFor(Protocol protocol, LineDirection direction, std::string_view op,
                        const ordered_json& doc, std::vector<Violation>& out) const {
    const std::string kind = KindOf(protocol, direction);
    if (kind.empty()) {
      out.push_back({"/", "is a line the " + std::string(ProtocolName(protocol)) +
                              " protocol does not have (framing)"});
      return "";
    }
    if (!IsRequest(direction)) {
      const std::string name = kind + "." + std::string(op);
      return !op.empty() && Has(protocol, name) ? name : kind + ".error";
    }
    const auto named = doc.find("op");
    if (named == doc.end() || !named->is_string()) {
      out.push_back({named == doc.end() ? "/" : "/op",
                     named == doc.end() ? "lacks the required key \"op\" (required)"
                                        : "is not of type \"string\" (type)"});
      return "";
    }
    const std::string name = kind + "." + named->get<std::string>();
    if (Has(protocol, name)) return name;
    out.push_back({"/op", "is not one of " + Ops(protocol, kind) + " (enum)"});
    return "";
  }
};

std::string_view ProtocolName(Protocol protocol) {
  return protocol == Protocol::kBackend ? "backend" : "testee";
}

StatusOr<ProtocolSchemas> ProtocolSchemas::Load() {
  return LoadFrom(base::Runfile("conformance/backend/protocol/schema"),
                  base::Runfile("conformance/testee/schema"));
}

StatusOr<ProtocolSchemas> ProtocolSchemas::LoadFrom(const std::string& backend_directory,
                                                    const std::string& testee_directory) {
  auto loaded = std::make_shared<Loaded>();
  const std::pair<Protocol, const std::string*> directories[] = {
      {Protocol::kBackend, &backend_directory}, {Protocol::kTestee, &testee_directory}};
  for (const auto& [protocol, directory] : directories) {
    ASSIGN_OR_RETURN(std::vector<std::string> files, SchemaFiles(*directory));
    for (const std::string& file : files) {
      RETURN_IF_ERROR(loaded->Add(protocol, file));
    }
  }
  RETURN_IF_ERROR(loaded->CheckAll());
  return ProtocolSchemas(std::move(loaded));
}

LineCheck ProtocolSchemas::Validate(Protocol protocol, LineDirection direction, std::string_view op,
                                    std::string_view line) const {
  LineCheck out;
  const std::optional<ordered_json> doc = Framed(line, out.violations);
  if (!doc) return out;
  out.schema = loaded_->SchemaFor(protocol, direction, op, *doc, out.violations);
  if (out.schema.empty()) return out;
  const ordered_json& schema = loaded_->registry.at(loaded_->ids.at({protocol, out.schema}));
  for (const SchemaProblem& p : ValidateAgainstSchema(schema, *doc, loaded_->registry)) {
    out.violations.push_back(Described(p));
  }
  return out;
}

size_t ProtocolSchemas::size() const { return loaded_->registry.size(); }

LineRecorder::LineRecorder(ProtocolSchemas schemas, size_t described)
    : schemas_(std::move(schemas)), described_(described) {}

void LineRecorder::Record(Protocol protocol, LineDirection direction, std::string_view op,
                          std::string_view line) {
  // Checked outside the lock: lines of both protocols may arrive from several threads.
  const LineCheck check = schemas_.Validate(protocol, direction, op, line);
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t number = ++tally_.lines;
  ++tally_.lines_by_protocol[protocol];
  if (check.violations.empty()) return;
  ++tally_.violations;
  if (tally_.described.size() >= described_) return;
  const std::string schema = check.schema.empty() ? KindOf(protocol, direction) : check.schema;
  std::string text = std::string(ProtocolName(protocol)) + " " +
                     (schema.empty() ? "line" : schema) + " (line " + Grouped(number) + "):";
  for (size_t i = 0; i < check.violations.size() && i < kViolationsPerLine; ++i) {
    text += (i == 0 ? " " : "; ") + check.violations[i].path + ": " + check.violations[i].rule;
  }
  if (check.violations.size() > kViolationsPerLine) {
    text += "; and " + std::to_string(check.violations.size() - kViolationsPerLine) + " more";
  }
  tally_.described.push_back(std::move(text));
}

conformance::line_protocol::LineObserver LineRecorder::ObserverFor(Protocol protocol) {
  return [this, protocol](LineDirection direction, std::string_view op, std::string_view line) {
    Record(protocol, direction, op, line);
  };
}

LineRecorder::Tally LineRecorder::tally() const {
  std::lock_guard<std::mutex> lock(mu_);
  return tally_;
}

void LineRecorder::Merge(const Tally& other) {
  std::lock_guard<std::mutex> lock(mu_);
  tally_.lines += other.lines;
  tally_.violations += other.violations;
  for (const auto& [protocol, lines] : other.lines_by_protocol) {
    tally_.lines_by_protocol[protocol] += lines;
  }
  for (const std::string& d : other.described) {
    if (tally_.described.size() >= described_) break;
    tally_.described.push_back(d);
  }
}

std::string SummaryLine(const LineRecorder::Tally& tally) {
  std::string which;
  for (const auto& [protocol, lines] : tally.lines_by_protocol) {
    which += (which.empty() ? "" : ", ") + std::string(ProtocolName(protocol)) + " protocol " +
             Grouped(lines);
  }
  if (which.empty()) which = "no protocol was spoken in this run";
  return "protocol validation: " + Grouped(tally.lines) + " line" + (tally.lines == 1 ? "" : "s") +
         " checked against the JSON Schemas (" + which + "), " + Grouped(tally.violations) +
         " violation" + (tally.violations == 1 ? "" : "s");
}

}  // namespace azure_pricing::conformance::protocol_schema
