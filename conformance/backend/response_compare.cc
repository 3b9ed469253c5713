#include "conformance/backend/response_compare.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace azure_pricing::conformance::backend {
namespace {

// RFC 9110 §7.6.1's hop-by-hop fields, by lower-case name.
const std::set<std::string>& HopByHop() {
  static const std::set<std::string> kNames = {"connection", "keep-alive", "proxy-connection",
                                               "te",         "trailer",    "transfer-encoding",
                                               "upgrade"};
  return kNames;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string TrimOws(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// One field name as a side wrote it, and its values in order.
struct Field {
  std::string name;
  std::vector<std::string> values;
};

struct Message {
  bool head_complete = false;
  std::string status_line;
  std::map<std::string, Field> fields;  // by lower-case name
  std::string body;                     // as read, after the blank line
};

Message Parse(const std::string& bytes) {
  Message m;
  const size_t end = bytes.find("\r\n\r\n");
  m.head_complete = end != std::string::npos;
  const std::string head = bytes.substr(0, end);
  if (m.head_complete) m.body = bytes.substr(end + 4);
  size_t start = head.find("\r\n");
  m.status_line = head.substr(0, start);
  while (start != std::string::npos) {
    const size_t next = head.find("\r\n", start + 2);
    const std::string line =
        head.substr(start + 2, next == std::string::npos ? next : next - start - 2);
    const size_t colon = line.find(':');
    const std::string name = line.substr(0, colon);
    Field& f = m.fields[Lower(name)];
    if (f.name.empty()) f.name = name;
    f.values.push_back(colon == std::string::npos ? "" : TrimOws(line.substr(colon + 1)));
    start = next;
  }
  return m;
}

// The comma-separated tokens of a field's values, lower-cased (Connection, Transfer-Encoding).
std::vector<std::string> Tokens(const Message& m, const std::string& name) {
  std::vector<std::string> out;
  const auto it = m.fields.find(name);
  if (it == m.fields.end()) return out;
  for (const std::string& value : it->second.values) {
    size_t start = 0;
    while (start <= value.size()) {
      const size_t comma = std::min(value.find(',', start), value.size());
      if (std::string t = Lower(TrimOws(value.substr(start, comma - start))); !t.empty()) {
        out.push_back(t);
      }
      start = comma + 1;
    }
  }
  return out;
}

bool Chunked(const Message& m) {
  const std::vector<std::string> codings = Tokens(m, "transfer-encoding");
  return !codings.empty() && codings.back() == "chunked";
}

// The payload of a chunked body (RFC 9112 §7.1), trailers dropped; nullopt when malformed.
std::optional<std::string> Dechunk(const std::string& body) {
  std::string out;
  size_t at = 0;
  for (;;) {
    const size_t eol = body.find("\r\n", at);
    if (eol == std::string::npos) return std::nullopt;
    const std::string size_text = body.substr(at, body.find_first_of("; \t\r", at) - at);
    if (size_text.empty() || size_text.size() > 15 ||
        size_text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
      return std::nullopt;
    }
    const size_t size = std::stoull(size_text, nullptr, 16);
    at = eol + 2;
    if (size == 0) break;
    if (body.size() < at + size + 2 || body.compare(at + size, 2, "\r\n") != 0) {
      return std::nullopt;
    }
    out += body.substr(at, size);
    at += size + 2;
  }
  // Trailer lines, if any, through the blank line that ends the message.
  const size_t end = body.find("\r\n\r\n", at - 2);
  if (end == std::string::npos || end + 4 != body.size()) return std::nullopt;
  return out;
}

// The body's payload: a chunked coding undone, any other framing as read.
std::optional<std::string> Payload(const Message& m) {
  return Chunked(m) ? Dechunk(m.body) : std::optional<std::string>(m.body);
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// What the comparison found, by field: end-to-end changes, and rewrites HTTP allows.
struct FieldReport {
  std::vector<std::string> added, removed, name_case, hop_by_hop;
  bool date_added = false, reframed = false;
};

// Drops from `got` and `sent` what is not the end-to-end response: hop-by-hop fields (those the
// upstream's Connection named too), a Date the upstream did not send, and the Content-Length a
// chunked re-framing replaced.
void DropPerConnection(Message& sent, Message& got, FieldReport& r) {
  const bool got_chunked = Chunked(got);  // read before Transfer-Encoding is dropped below
  std::set<std::string> hop = HopByHop();
  for (const std::string& t : Tokens(sent, "connection")) hop.insert(t);
  for (const std::string& name : hop) {
    const auto a = sent.fields.find(name), b = got.fields.find(name);
    const bool in_a = a != sent.fields.end(), in_b = b != got.fields.end();
    if (in_a != in_b || (in_a && (a->second.name != b->second.name ||
                                  a->second.values != b->second.values))) {
      r.hop_by_hop.push_back(in_b ? b->second.name : a->second.name);
    }
    if (in_a) sent.fields.erase(a);
    if (in_b) got.fields.erase(b);
  }
  const auto date = got.fields.find("date");
  if (!sent.fields.contains("date") && date != got.fields.end() && date->second.values.size() == 1) {
    got.fields.erase(date);
    r.date_added = true;
  }
  if (got_chunked && !got.fields.contains("content-length")) {
    r.reframed = sent.fields.erase("content-length") > 0;
  }
}

void CompareFields(const Message& sent, const Message& got, FieldReport& r) {
  std::set<std::string> names;
  for (const auto& [name, f] : sent.fields) names.insert(name);
  for (const auto& [name, f] : got.fields) names.insert(name);
  for (const std::string& name : names) {
    const auto a = sent.fields.find(name), b = got.fields.find(name);
    const bool in_a = a != sent.fields.end(), in_b = b != got.fields.end();
    if (in_a && in_b && a->second.values == b->second.values) {
      if (a->second.name != b->second.name) r.name_case.push_back(b->second.name);
      continue;
    }
    if (in_b) r.added.push_back(b->second.name);
    if (in_a) r.removed.push_back(a->second.name);
  }
}

// The pass detail: what the proxy rewrote that HTTP allows, or "byte for byte".
std::string Allowed(const FieldReport& r, bool identical) {
  if (identical) return "byte for byte";
  std::string out = "as HTTP defines it";
  if (!r.name_case.empty()) out += "; field names in another letter case: " + Join(r.name_case);
  if (!r.hop_by_hop.empty()) out += "; hop-by-hop fields rewritten: " + Join(r.hop_by_hop);
  if (r.date_added) out += "; a Date added where the upstream sent none";
  if (r.reframed) out += "; the body re-framed as chunked";
  return out;
}

}  // namespace

ResponseComparison CompareResponses(const std::string& sent, const std::string& got) {
  Message a = Parse(sent), b = Parse(got);
  FieldReport r;
  const std::optional<std::string> sent_payload = Payload(a), got_payload = Payload(b);
  DropPerConnection(a, b, r);
  CompareFields(a, b, r);
  const bool status_changed = a.status_line != b.status_line;
  const bool body_changed = !b.head_complete || !got_payload || sent_payload != got_payload;
  if (!status_changed && !body_changed && r.added.empty() && r.removed.empty()) {
    return {true, Allowed(r, sent == got)};
  }
  std::string out = std::to_string(sent.size()) + " bytes sent by the upstream, " +
                    std::to_string(got.size()) + " received";
  if (status_changed) out += "; the status line changed";
  if (!r.added.empty()) out += "; header lines added or changed: " + Join(r.added);
  if (!r.removed.empty()) out += "; header lines removed or changed: " + Join(r.removed);
  if (body_changed) out += "; the body changed";
  return {false, out};
}

}  // namespace azure_pricing::conformance::backend
