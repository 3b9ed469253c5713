// docs/profile.md and the code say the same thing: the reason tables name exactly the codes the
// tool, the scripted host and the gate can end a call with, each with its outcome; the bounds
// table gives the defaults and ranges bounds.h has; the character table lists exactly the code
// points the argument rules refuse or count as blank. A change on either side fails here.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/citations/cites.h"
#include "conformance/host/scripted_host.h"
#include "conformance/judge/message_facts.h"
#include "conformance/judge/profile_facts.h"
#include "conformance/testee/runner.h"  // the gate's codes, declared in protocol.h
#include "ref/base/files.h"
#include "ref/pricing/arguments.h"
#include "ref/pricing/bounds.h"
#include "ref/pricing/reasons.h"
#include "ref/pricing/selection.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance {

CITES("PROFILE-001", "PROFILE-007", "PROFILE-008", "PROFILE-009", "PROFILE-011");

namespace {

constexpr char kProfile[] = "docs/profile.md";

std::string Profile() {
  const StatusOr<std::string> text = base::ReadFile(kProfile);
  return text.ok() ? *text : std::string();
}

std::vector<std::vector<std::string>> TableRows(const std::string& text, std::string_view name) {
  return judge::ProfileTableRows(text, name);
}

// "`code`" -> "code"; anything else stays as it is and will not match a code.
std::string Unquoted(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`') {
    return cell.substr(1, cell.size() - 2);
  }
  return cell;
}

using Pairs = std::multiset<std::pair<std::string, std::string>>;  // (outcome, code)

Pairs DocumentedPairs(std::string_view table) {
  Pairs pairs;
  for (const std::vector<std::string>& row : TableRows(Profile(), table)) {
    if (row.size() != 4) {
      ADD_FAILURE() << table << ": a row has " << row.size() << " cells, not 4";
      continue;
    }
    EXPECT_FALSE(row[2].empty()) << row[1] << ": says nothing of when it applies";
    EXPECT_FALSE(row[3].empty()) << row[1] << ": says nothing of its message's facts";
    pairs.emplace(row[0], Unquoted(row[1]));
  }
  return pairs;
}

// Both ways, so that the failure names each pair that is only on one side.
void ExpectSamePairs(const Pairs& code, const Pairs& documented) {
  for (const auto& [outcome, reason] : code) {
    EXPECT_EQ(documented.count({outcome, reason}), 1u)
        << "(" << outcome << ", " << reason << ") is in the code; " << kProfile
        << " must list it once with that outcome";
  }
  for (const auto& [outcome, reason] : documented) {
    EXPECT_EQ(code.count({outcome, reason}), 1u)
        << "(" << outcome << ", " << reason << ") is in " << kProfile << " but not in the code";
  }
}

TEST(ProfileTest, TheToolsReasonTableIsReasonsKAll) {
  Pairs code;
  for (const reasons::ReasonCode& r : reasons::kAll) {
    code.emplace(std::string(OutcomeName(r.outcome)), std::string(r.code));
  }
  const Pairs documented = DocumentedPairs("reason-table: tool");
  EXPECT_EQ(documented.size(), reasons::kAll.size());
  ExpectSamePairs(code, documented);
}

TEST(ProfileTest, TheHostsReasonTableIsTheScriptedHostsAndTheGatesCodes) {
  const std::string refused(OutcomeName(Outcome::kRefused));
  const std::string failed(OutcomeName(Outcome::kFailed));
  const Pairs code = {
      {refused, host::kNoTool},
      {refused, host::kInvalidConfiguration},
      {failed, testee::kTesteeTimeout},
      {failed, testee::kTesteeExited},
      {failed, testee::kTesteeProtocolError},
      {failed, testee::kTesteeSpawnFailed},
      {failed, testee::kTesteeBadCallback},
      // StatusForReason keeps the outcome the testee answered with.
      {refused + " or " + failed, testee::kTesteeError},
  };
  ExpectSamePairs(code, DocumentedPairs("reason-table: host"));
}

TEST(ProfileTest, TheBoundsTableIsBoundsH) {
  const HostBounds defaults;
  const std::map<std::string, std::vector<std::string>> code = {
      {"exec_timeout_seconds",
       {std::to_string(defaults.exec_timeout_seconds), std::to_string(kMinExecTimeoutSeconds),
        std::to_string(kMaxExecTimeoutSeconds)}},
      {"max_output_bytes",
       {std::to_string(defaults.max_output_bytes), std::to_string(kMinOutputBytes),
        std::to_string(kMaxOutputBytes)}},
      {"max_rows",
       {std::to_string(defaults.max_rows), std::to_string(kMinRows), std::to_string(kMaxRows)}},
  };
  std::map<std::string, std::vector<std::string>> documented;
  for (const std::vector<std::string>& row : TableRows(Profile(), "bounds-table")) {
    ASSERT_EQ(row.size(), 4u);
    documented[row[0]] = {row[1], row[2], row[3]};
  }
  EXPECT_EQ(documented, code) << "bound | default | minimum | maximum";
}

// "U+2066–U+2069" or "U+FEFF" -> the inclusive range; nullopt when the cell is neither.
std::optional<std::pair<uint32_t, uint32_t>> CodePointRange(const std::string& cell) {
  unsigned first = 0, last = 0;
  int used = 0;
  if (std::sscanf(cell.c_str(), "U+%X%n", &first, &used) != 1) return std::nullopt;
  const std::string rest = cell.substr(static_cast<size_t>(used));
  if (rest.empty()) return std::make_pair(first, first);
  // The dash is an en dash, as the document writes ranges.
  if (std::sscanf(rest.c_str(), "\u2013U+%X", &last) != 1 || last < first) return std::nullopt;
  return std::make_pair(first, last);
}

struct CharacterClasses {
  std::set<uint32_t> forbidden;
  std::set<uint32_t> blank;
};

CharacterClasses DocumentedClasses() {
  CharacterClasses classes;
  for (const std::vector<std::string>& row : TableRows(Profile(), "character-table")) {
    EXPECT_EQ(row.size(), 4u);
    if (row.size() != 4) continue;
    const std::optional<std::pair<uint32_t, uint32_t>> range = CodePointRange(row[0]);
    EXPECT_TRUE(range.has_value()) << row[0] << ": not U+XXXX or U+XXXX–U+YYYY";
    if (!range) continue;
    std::set<uint32_t>& into =
        row[2] == "`forbidden_character`" ? classes.forbidden : classes.blank;
    EXPECT_TRUE(row[2] == "`forbidden_character`" || row[2].starts_with("`empty_value`"))
        << row[0] << ": reason " << row[2];
    for (uint32_t cp = range->first; cp <= range->second; ++cp) into.insert(cp);
  }
  return classes;
}

// The code point as a JSON string escape, so that controls reach the rule rather than the JSON
// reader's refusal of raw controls.
std::string Escaped(uint32_t cp) {
  char buffer[16];
  if (cp < 0x10000) {
    std::snprintf(buffer, sizeof buffer, "\\u%04X", cp);
  } else {
    const uint32_t v = cp - 0x10000;
    std::snprintf(buffer, sizeof buffer, "\\u%04X\\u%04X", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
  }
  return buffer;
}

std::string ReasonFor(const std::string& sku_json_text) {
  const StatusOr<ToolArguments> args = ParseToolArguments("{\"sku\":\"" + sku_json_text + "\"}");
  return args.ok() ? std::string() : std::string(args.status().reason());
}

std::string Utf8(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

// What the argument rules make of one code point: refused after a letter, blank alone. The BMP
// and a sample of the other planes go through the whole parse; the rest of the other planes
// (a million code points, where Unicode has no controls, separators or blanks) through the
// character rule alone, which keeps the test small.
std::pair<bool, bool> Judged(uint32_t cp) {
  if (cp < 0x10000 || cp % 251 == 0) {
    return {ReasonFor("a" + Escaped(cp)) == reasons::kForbiddenCharacter,
            ReasonFor(Escaped(cp)) == reasons::kEmptyValue};
  }
  return {!ForbiddenCharacterReason(Utf8(cp)).empty(), false};
}

// Every Unicode scalar value: after a letter it is refused as forbidden_character exactly when
// the table lists it so; alone it is empty_value exactly when the table lists it as blank.
TEST(ProfileTest, TheCharacterTableIsWhatTheArgumentRulesRefuse) {
  const CharacterClasses documented = DocumentedClasses();
  ASSERT_GE(documented.forbidden.size(), 65u);
  ASSERT_GE(documented.blank.size(), 10u);
  std::vector<std::string> disagreements;
  for (uint32_t cp = 0; cp <= 0x10FFFF && disagreements.size() < 20; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const auto [forbidden, blank] = Judged(cp);
    char name[16];
    std::snprintf(name, sizeof name, "U+%04X", cp);
    if (forbidden != (documented.forbidden.count(cp) == 1)) {
      disagreements.push_back(std::string(name) + (forbidden ? " is refused" : " is accepted") +
                              " by the character rule");
    }
    if (blank != (documented.blank.count(cp) == 1)) {
      disagreements.push_back(std::string(name) + (blank ? " is" : " is not") + " blank");
    }
  }
  EXPECT_EQ(disagreements, std::vector<std::string>{}) << "the code disagrees with " << kProfile;
}

// PROFILE-007's maxima: code points, not bytes, for the typed values and filter; bytes for the
// whole arguments text.
TEST(ProfileTest, OversizedIsCountedAsTheProfileSays) {
  auto repeat = [](std::string_view unit, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += unit;
    return out;
  };
  const std::string e_acute = "\u00E9";  // two bytes, one code point
  EXPECT_EQ(ReasonFor(repeat(e_acute, 256)), "");
  EXPECT_EQ(ReasonFor(repeat(e_acute, 257)), reasons::kValueTooLong);
  auto filter_reason = [](const std::string& filter) {
    const StatusOr<ToolArguments> a = ParseToolArguments("{\"filter\":\"" + filter + "\"}");
    return a.ok() ? std::string() : std::string(a.status().reason());
  };
  EXPECT_EQ(filter_reason(repeat(e_acute, 2048)), "");
  EXPECT_EQ(filter_reason(repeat(e_acute, 2049)), reasons::kValueTooLong);
  // 65,536 bytes in all is accepted; one more is refused before the text is read.
  auto padded_to = [](size_t bytes) {
    const std::string head = "{\"sku\":\"a\"";
    const StatusOr<ToolArguments> a =
        ParseToolArguments(head + std::string(bytes - head.size() - 1, ' ') + "}");
    return a.ok() ? std::string() : std::string(a.status().reason());
  };
  EXPECT_EQ(padded_to(65536), "");
  EXPECT_EQ(padded_to(65537), reasons::kArgumentsTooLarge);
}

// The selection-notes table is the reference's notes in their fixed order, each stating the
// facts its row says (PROFILE-011, PROFILE-002).
TEST(ProfileTest, TheSelectionNotesTableIsTheReferencesNotesInOrder) {
  const char* const notes[] = {kNoteUnknownRegion,    kNoteNoAssignment,
                               kNoteUnknownFamily,    kNoteExpressRoute,
                               kNoteFrontDoorStandardPremium, kNoteEdgeZone,
                               kNoteNearestRegion,    kNoteGlobalFromTruncated,
                               kNoteNotProofOfAbsence};
  const std::vector<std::vector<std::string>> rows = TableRows(Profile(), "selection-notes-table");
  ASSERT_EQ(rows.size(), std::size(notes)) << kProfile << " lists another number of notes";
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 3u) << rows[i][0];
    EXPECT_FALSE(rows[i][1].empty()) << rows[i][0] << ": says nothing of when it appears";
    const std::vector<judge::Fact> facts = judge::FactsOfCell(rows[i][2]);
    EXPECT_FALSE(facts.empty()) << rows[i][0] << ": states no fact";
    for (const std::string& missing : judge::MissingFacts(notes[i], facts)) {
      ADD_FAILURE() << rows[i][0] << " (row " << i + 1 << "): the reference's note "
                    << "in that place does not state " << missing;
    }
  }
}

}  // namespace
}  // namespace azure_pricing::conformance
