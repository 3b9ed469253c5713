// libFuzzer target: any bytes as a price page the fake azmcp reads with its System.Text.Json
// emulation. Invariants: nothing crashes; Parse gives a tree or an error message, never both;
// an accepted document written back out (strings and numbers as read, names re-escaped) parses
// to the same tree; each getter fails exactly on the kinds .NET refuses, and GetString returns
// only valid UTF-8 (by ref/json's check); whatever ref/json's strict reader accepts,
// System.Text.Json accepts too, reading the same values; the page model and the row mapping run
// on any accepted tree.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "fakes/azmcp/retail_page.h"
#include "fakes/azmcp/stj_document.h"
#include "ref/json/json.h"

namespace {

namespace stj = azure_pricing::fakes::azmcp::stj;
namespace azmcp = azure_pricing::fakes::azmcp;

void Require(bool condition) {
  if (!condition) std::abort();
}

void WriteName(const std::string& name, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (const char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20) {
      out += "\\u00";
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

void Write(const stj::Element& e, std::string& out) {
  switch (e.kind) {
    case stj::Kind::kObject:
      out.push_back('{');
      for (size_t i = 0; i < e.properties.size(); ++i) {
        if (i > 0) out.push_back(',');
        WriteName(e.properties[i].first, out);
        out.push_back(':');
        Write(e.properties[i].second, out);
      }
      out.push_back('}');
      return;
    case stj::Kind::kArray:
      out.push_back('[');
      for (size_t i = 0; i < e.items.size(); ++i) {
        if (i > 0) out.push_back(',');
        Write(e.items[i], out);
      }
      out.push_back(']');
      return;
    case stj::Kind::kString:
      out += "\"" + e.raw + "\"";
      return;
    case stj::Kind::kNumber:
      out += e.raw;
      return;
    case stj::Kind::kTrue:
      out += "true";
      return;
    case stj::Kind::kFalse:
      out += "false";
      return;
    case stj::Kind::kNull:
      out += "null";
      return;
  }
}

bool Same(const stj::Element& a, const stj::Element& b) {
  if (a.kind != b.kind || a.raw != b.raw || a.properties.size() != b.properties.size() ||
      a.items.size() != b.items.size()) {
    return false;
  }
  for (size_t i = 0; i < a.properties.size(); ++i) {
    if (a.properties[i].first != b.properties[i].first ||
        !Same(a.properties[i].second, b.properties[i].second)) {
      return false;
    }
  }
  for (size_t i = 0; i < a.items.size(); ++i) {
    if (!Same(a.items[i], b.items[i])) return false;
  }
  return true;
}

void CheckGetters(const stj::Element& e, int& budget) {
  if (--budget < 0) return;
  std::optional<std::string> text;
  if (!stj::GetString(e, text)) {
    Require(e.kind == stj::Kind::kString || e.kind == stj::Kind::kNull);
    Require(!text || azure_pricing::json::IsValidUtf8(*text));
  }
  double d = 0;
  int64_t n = 0;
  bool b = false;
  Require(stj::GetDouble(e, d).has_value() == (e.kind != stj::Kind::kNumber));
  if (!stj::GetInt64(e, n)) Require(e.kind == stj::Kind::kNumber);
  Require(stj::GetBoolean(e, b).has_value() ==
          (e.kind != stj::Kind::kTrue && e.kind != stj::Kind::kFalse));
  for (const stj::Property& p : e.properties) CheckGetters(p.second, budget);
  for (const stj::Element& item : e.items) CheckGetters(item, budget);
}

// ref/json's reading of a document it accepts, value by value: the same shape, names, strings
// (as GetString unescapes them) and doubles (bit for bit: both round correctly).
void Agree(const azure_pricing::json::Value& v, const stj::Element& e) {
  using azure_pricing::json::Type;
  switch (v.type()) {
    case Type::kNull:
      return Require(e.kind == stj::Kind::kNull);
    case Type::kBool:
      return Require(e.kind == (v.as_bool() ? stj::Kind::kTrue : stj::Kind::kFalse));
    case Type::kNumber: {
      double d = 0;
      Require(!stj::GetDouble(e, d) && d == v.as_number());
      return;
    }
    case Type::kString: {
      std::optional<std::string> text;
      Require(!stj::GetString(e, text) && text == v.as_string());
      return;
    }
    case Type::kArray:
      Require(e.kind == stj::Kind::kArray && e.items.size() == v.items().size());
      for (size_t i = 0; i < e.items.size(); ++i) Agree(v.items()[i], e.items[i]);
      return;
    case Type::kObject:
      Require(e.kind == stj::Kind::kObject && e.properties.size() == v.members().size());
      for (size_t i = 0; i < e.properties.size(); ++i) {
        Require(e.properties[i].first == v.members()[i].key);
        Agree(v.members()[i].value, e.properties[i].second);
      }
      return;
  }
}

void CheckPage(const stj::Element& root) {
  azmcp::PageModel page;
  if (azmcp::DeserializePage(root, page) || !page.items) return;
  for (const auto& item : *page.items) {
    nlohmann::ordered_json row;
    if (azmcp::MapRow(item, row)) return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const stj::ParseResult parsed = stj::Parse(text);
  // At most 64 deep, well within System.Text.Json's 256.
  const azure_pricing::json::ParseResult strict = azure_pricing::json::ParseStrict(text);
  if (!parsed.root) {
    Require(!parsed.error.empty());
    Require(strict.error != azure_pricing::json::ParseError::kNone);
    return 0;
  }
  Require(parsed.error.empty());
  if (strict.error == azure_pricing::json::ParseError::kNone) Agree(strict.value, *parsed.root);
  std::string written;
  Write(*parsed.root, written);
  const stj::ParseResult again = stj::Parse(written);
  Require(again.root && Same(*again.root, *parsed.root));
  int budget = 10000;
  CheckGetters(*parsed.root, budget);
  CheckPage(*parsed.root);
  return 0;
}
