// docs/wording.md's table is the reference's exact wording (PROFILE-003), and every exact text a
// case states is in it: a port learns the RECOMMENDED wording from the table, not from failure
// lines. The table is held, row by row and in order, to the constants the reference builds its
// texts from (ref/pricing/messages.h, report.h, selection.h, package.h, the tool's schema); each
// wording string of a case must be part of a row that call can show; and the reference must
// state every case's wording. A change on any side fails here, naming the row or the case.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "conformance/cases/case_runner.h"
#include "conformance/citations/cites.h"
#include "conformance/judge/profile_facts.h"
#include "ref/base/files.h"
#include "ref/pricing/arguments.h"
#include "ref/pricing/messages.h"
#include "ref/pricing/package.h"
#include "ref/pricing/report.h"
#include "ref/pricing/schema.h"
#include "ref/pricing/selection.h"
#include "ref/zones/location_values.h"

namespace azure_pricing::conformance {

CITES("PROFILE-003");

namespace {

using Json = nlohmann::json;

constexpr char kWordingPage[] = "docs/wording.md";

struct Row {
  std::string where;  // message, trusted message, warning, selection note, tool
  std::string key;    // the reason code, the trusted message's or note's name, the tool's part
  std::string text;
  bool operator==(const Row&) const = default;
};

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The tool's description and each parameter's description, as the model sees them; the region
// description's list of location values is written as the placeholder the messages use.
std::vector<Row> ToolRows() {
  std::vector<Row> rows = {{"tool", "description", ToolDescription()}};
  const Json schema = Json::parse(ParameterSchemaJson());
  for (std::string_view name : kArgumentNames) {
    const std::string description = schema["properties"][std::string(name)]["description"];
    rows.push_back({"tool", std::string(name),
                    ReplaceAll(description, zones::LocationValueList(), messages::kLocationValues)});
  }
  return rows;
}

// Every text the reference can show, in the table's order.
std::vector<Row> ReferenceWording() {
  std::vector<Row> rows;
  for (const messages::Message& m : messages::kAll) {
    rows.push_back({"message", std::string(m.reason), m.text});
  }
  rows.push_back({"trusted message", "completed", kCompletionMessage});
  rows.push_back({"trusted message", "truncated", kTruncationMessage});
  rows.push_back({"trusted message", "upstream_limit_reached", kUpstreamLimitMessage});
  rows.push_back({"trusted message", "guidance", kPricingGuidance});
  rows.push_back({"warning", kExperimentalWarningCategory,
                  std::string(kExperimentalWarningCategory) + ": " + kExperimentalWarning});
  const std::pair<const char*, const char*> notes[] = {
      {"unknown region", kNoteUnknownRegion},
      {"no assignment", kNoteNoAssignment},
      {"unknown family", kNoteUnknownFamily},
      {"ExpressRoute", kNoteExpressRoute},
      {"Front Door Standard/Premium", kNoteFrontDoorStandardPremium},
      {"edge zone", kNoteEdgeZone},
      {"nearest region", kNoteNearestRegion},
      {"Global from a cut result", kNoteGlobalFromTruncated},
      {"not proof of absence", kNoteNotProofOfAbsence}};
  for (const auto& [name, text] : notes) rows.push_back({"selection note", name, text});
  for (Row& r : ToolRows()) rows.push_back(std::move(r));
  return rows;
}

// "`code`" -> "code".
std::string Unquoted(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`') {
    return cell.substr(1, cell.size() - 2);
  }
  return cell;
}

std::vector<Row> DocumentedWording() {
  const StatusOr<std::string> page = base::ReadFile(kWordingPage);
  EXPECT_TRUE(page.ok()) << kWordingPage;
  std::vector<Row> rows;
  for (const std::vector<std::string>& cells :
       judge::ProfileTableRows(page.ok() ? *page : "", "wording-table")) {
    EXPECT_EQ(cells.size(), 3u) << kWordingPage << ": a row has " << cells.size() << " cells";
    if (cells.size() == 3) rows.push_back({cells[0], Unquoted(cells[1]), cells[2]});
  }
  return rows;
}

std::string MarkdownRow(const Row& r) { return "| " + r.where + " | `" + r.key + "` | " + r.text + " |"; }

TEST(WordingTest, TheTableIsTheReferencesTextsInOrder) {
  const StatusOr<std::string> page = base::ReadFile(kWordingPage);
  ASSERT_TRUE(page.ok()) << kWordingPage;
  EXPECT_THAT(*page, ::testing::HasSubstr("`" + zones::LocationValueList() + "`"))
      << kWordingPage << " spells out what \u00ABlocation values\u00BB stands for";
  const std::vector<Row> code = ReferenceWording();
  const std::vector<Row> documented = DocumentedWording();
  std::string want;
  for (const Row& r : code) want += MarkdownRow(r) + "\n";
  ASSERT_EQ(documented.size(), code.size()) << kWordingPage << " must hold exactly:\n" << want;
  for (size_t i = 0; i < code.size(); ++i) {
    EXPECT_EQ(documented[i], code[i]) << kWordingPage << " row " << i + 1 << " must read\n"
                                      << MarkdownRow(code[i]);
  }
}

// What a placeholder stands for in a call: the constants the reference fills in.
std::vector<std::string> ValuesOf(const std::string& placeholder) {
  std::vector<std::string> out;
  if (placeholder == messages::kArgument) {
    for (std::string_view n : kArgumentNames) out.emplace_back(n);
  } else if (placeholder == messages::kMaximum) {
    out = {std::to_string(kMaxTypedValueLength), std::to_string(kMaxFilterLength),
           std::to_string(kMaxArgumentsJsonBytes)};
  } else if (placeholder == messages::kLocationValue) {
    for (const zones::LocationValue& v : zones::kLocationValues) out.emplace_back(v.value);
  } else if (placeholder == messages::kLocationValues) {
    out = {zones::LocationValueList()};
  }
  return out;
}

// Every text a row's placeholders can become.
std::vector<std::string> Instances(const std::string& text) {
  std::vector<std::string> done = {text};
  for (const char* p : {messages::kArgument, messages::kMaximum, messages::kLocationValue,
                        messages::kLocationValues}) {
    std::vector<std::string> next;
    for (const std::string& t : done) {
      if (t.find(p) == std::string::npos) {
        next.push_back(t);
        continue;
      }
      for (const std::string& v : ValuesOf(p)) next.push_back(messages::Fill(t, p, v));
    }
    done = std::move(next);
  }
  return done;
}

// Whether `wording` is part of a text some row of `rows` can show.
bool Held(const std::string& wording, const std::vector<Row>& rows) {
  for (const Row& r : rows) {
    for (const std::string& instance : Instances(r.text)) {
      if (instance.find(wording) != std::string::npos) return true;
    }
  }
  return false;
}

std::vector<Row> RowsWhere(const std::vector<Row>& all, std::string_view where,
                           std::string_view key = "") {
  std::vector<Row> out;
  for (const Row& r : all) {
    if (r.where == where && (key.empty() || r.key == key)) out.push_back(r);
  }
  return out;
}

// The rows a case's wording key draws on: a refusal's or failure's message comes from its
// reason's rows, a completed call's first trusted message from the trusted messages.
std::vector<Row> RowsFor(const std::vector<Row>& all, const Json& expect, const std::string& key) {
  if (key == "message_contains") {
    const std::string reason = expect.value("reason", std::string());
    return reason.empty() ? RowsWhere(all, "trusted message") : RowsWhere(all, "message", reason);
  }
  if (key == "trusted_messages_contain") return RowsWhere(all, "trusted message");
  if (key == "warnings_contain") return RowsWhere(all, "warning");
  if (key == "selection_notes") return RowsWhere(all, "selection note");
  return RowsWhere(all, "tool");
}

// The wording strings of one expectation, with the key that states each.
std::vector<std::pair<std::string, std::string>> WordingOf(const Json& expect) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* key : {"message_contains", "trusted_messages_contain", "warnings_contain",
                          "selection_notes"}) {
    for (const Json& s : expect.value(key, Json::array())) out.emplace_back(key, s);
  }
  const Json tool = expect.value("tool", Json::object());
  for (const Json& s : tool.value("text_contains", Json::array())) {
    out.emplace_back("tool.text_contains", s);
  }
  return out;
}

TEST(WordingTest, EveryCasesWordingIsInTheTable) {
  const std::vector<Row> rows = DocumentedWording();
  ASSERT_FALSE(rows.empty());
  int strings = 0;
  for (const std::string& file : CaseFiles()) {
    const StatusOr<std::string> text = base::ReadFile(file);
    ASSERT_TRUE(text.ok()) << file;
    for (const Json& c : Json::parse(*text).value("cases", Json::array())) {
      std::vector<Json> calls = {c};
      for (const Json& then : c.value("then", Json::array())) calls.push_back(then);
      for (const Json& call : calls) {
        const Json expect = call.value("expect", Json::object());
        for (const auto& [key, wording] : WordingOf(expect)) {
          ++strings;
          EXPECT_TRUE(Held(wording, RowsFor(rows, expect, key)))
              << file << ", " << c.value("id", "") << ": " << key << " \"" << wording
              << "\" is in no row of " << kWordingPage << " such a call can show";
        }
      }
    }
  }
  EXPECT_GE(strings, 40) << "the case files state less wording than they did";
}

// The reference meets every wording check the cases state, so the table (held to its constants
// above) is what the cases compare with.
TEST(WordingTest, TheReferenceStatesEveryCasesWording) {
  for (const std::string& file : CaseFiles()) {
    for (const CaseResult& r : RunCaseFile(file)) {
      EXPECT_TRUE(r.wording_passed) << r.id << ": " << r.wording_detail;
    }
  }
}

}  // namespace
}  // namespace azure_pricing::conformance
