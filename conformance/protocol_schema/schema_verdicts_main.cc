// schema_verdicts: the JSON Schema validator's verdicts as JSON lines, for
// json_schema_cross_check_test.py, which asks python-jsonschema the same questions and requires
// the same answers.
//
//   schema_verdicts transcripts
//       One line per transcript line of the two PROTOCOL.md files (in the runfiles), with the
//       schema the gate's protocol validator chooses for it (conformance/protocol_schema):
//       {"protocol":"backend","side":">","document":LINE,"schema":FILE,"valid":BOOL,"refused":TEXT}
//       where FILE is the schema's path ("conformance/testee/schema/answer.case.schema.json"), or
//       null with "refused" (the first violation) when no schema applies: framing, an unknown op.
//   schema_verdicts judge SCHEMA_FILE...
//       Loads the schemas (a $ref resolves among them by $id; a file without $id is known by
//       its path) and prints one line per file, {"file":FILE,"id":ID,"schema_problems":[...]}
//       (CheckSchema: what the subset refuses); then, for each {"schema":ID,"document":TEXT}
//       line on stdin, {"valid":BOOL,"problems":[...]}.
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "conformance/json_schema/json_schema.h"
#include "conformance/protocol_schema/transcript.h"
#include "conformance/protocol_schema/validator.h"
#include "ref/base/files.h"
#include "ref/base/main_guard.h"
#include "ref/base/runfiles.h"

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;
using protocol_schema::Protocol;

constexpr int kUsage = 64;

void PrintLine(const ordered_json& line) {
  std::cout << line.dump(-1, ' ', false, ordered_json::error_handler_t::replace) << "\n";
}

ordered_json Described(const std::vector<SchemaProblem>& problems) {
  ordered_json out = ordered_json::array();
  for (const SchemaProblem& p : problems) {
    out.push_back(PathText(p.path) + ": " + p.what + " (" + p.keyword + ")");
  }
  return out;
}

int Transcripts() {
  StatusOr<protocol_schema::ProtocolSchemas> schemas = protocol_schema::ProtocolSchemas::Load();
  if (!schemas.ok()) {
    std::cerr << "schema_verdicts: " << schemas.status().message() << "\n";
    return 1;
  }
  const struct {
    Protocol protocol;
    const char* markdown;
    const char* schema_directory;
  } kProtocols[] = {
      {Protocol::kBackend, "conformance/backend/protocol/PROTOCOL.md",
       "conformance/backend/protocol/schema/"},
      {Protocol::kTestee, "conformance/testee/PROTOCOL.md", "conformance/testee/schema/"},
  };
  for (const auto& p : kProtocols) {
    StatusOr<std::string> text = base::ReadFile(base::Runfile(p.markdown));
    if (!text.ok()) {
      std::cerr << "schema_verdicts: cannot read " << p.markdown << ": " << text.status().message()
                << "\n";
      return 1;
    }
    for (const auto& d : Directed(p.protocol, protocol_schema::TranscriptLines(*text))) {
      const protocol_schema::LineCheck check =
          schemas->Validate(p.protocol, d.direction, d.op, d.line.text);
      ordered_json line = {{"protocol", protocol_schema::ProtocolName(p.protocol)},
                           {"side", std::string(1, d.line.side)},
                           {"document", d.line.text},
                           {"schema", nullptr},
                           {"valid", check.violations.empty()}};
      if (!check.schema.empty()) {
        line["schema"] = p.schema_directory + check.schema + ".schema.json";
      } else if (!check.violations.empty()) {
        line["refused"] = check.violations.front().path + ": " + check.violations.front().rule;
      }
      PrintLine(line);
    }
  }
  return 0;
}

// Every file by its $id, or by its path when it has none; false after saying what is wrong.
bool LoadSchemas(const std::vector<std::string>& files, SchemaRegistry& registry,
                 std::vector<std::string>& keys) {
  for (const std::string& file : files) {
    StatusOr<std::string> text = base::ReadFile(file);
    const ordered_json schema = text.ok() ? ordered_json::parse(*text, nullptr, false)
                                          : ordered_json(ordered_json::value_t::discarded);
    if (schema.is_discarded()) {
      std::cerr << "schema_verdicts: cannot read " << file << " as JSON\n";
      return false;
    }
    const bool has_id = schema.is_object() && schema.contains("$id") && schema["$id"].is_string();
    const std::string key = has_id ? schema["$id"].get<std::string>() : file;
    if (!registry.emplace(key, schema).second) {
      std::cerr << "schema_verdicts: two schemas are known as " << key << "\n";
      return false;
    }
    keys.push_back(key);
  }
  return true;
}

// One verdict for one {"schema":ID,"document":TEXT} line.
ordered_json Judge(const SchemaRegistry& registry, const std::string& request) {
  const ordered_json asked = ordered_json::parse(request, nullptr, false);
  if (!asked.is_object() || !asked.contains("schema") || !asked.contains("document") ||
      !asked["schema"].is_string() || !asked["document"].is_string()) {
    return {{"error", "a request is {\"schema\":ID,\"document\":TEXT}"}};
  }
  const auto schema = registry.find(asked["schema"].get<std::string>());
  if (schema == registry.end()) return {{"error", "no schema is known by that id"}};
  const ordered_json document =
      ordered_json::parse(asked["document"].get<std::string>(), nullptr, false);
  if (document.is_discarded()) return {{"error", "the document is not JSON"}};
  const std::vector<SchemaProblem> problems =
      ValidateAgainstSchema(schema->second, document, registry);
  return {{"valid", problems.empty()}, {"problems", Described(problems)}};
}

int JudgeAll(const std::vector<std::string>& files) {
  SchemaRegistry registry;
  std::vector<std::string> keys;
  if (!LoadSchemas(files, registry, keys)) return 1;
  for (size_t i = 0; i < files.size(); ++i) {
    PrintLine({{"file", files[i]},
               {"id", keys[i]},
               {"schema_problems", Described(CheckSchema(registry.at(keys[i]), registry))}});
  }
  std::string request;
  while (std::getline(std::cin, request)) PrintLine(Judge(registry, request));
  return 0;
}

int Main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "transcripts") return Transcripts();
  if (args.size() >= 2 && args[0] == "judge") return JudgeAll({args.begin() + 1, args.end()});
  std::cerr << "schema_verdicts: usage: schema_verdicts transcripts | schema_verdicts judge SCHEMA_FILE...\n";
  return kUsage;
}

}  // namespace
}  // namespace azure_pricing::conformance

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain(
      "schema_verdicts", [&] { return azure_pricing::conformance::Main(argc, argv); });
}
