#include "fakes/azmcp/differential_rig.h"

#include <openssl/sha.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "fakes/prices_server/catalog_generator.h"
#include "fakes/testing/run_program.h"
#include "fakes/testing/server_process.h"
#include "ref/base/files.h"
#include "ref/base/sanitizers.h"
#include "ref/egress/proxy.h"

namespace azure_pricing::fakes::azmcp {
namespace {

using Json = nlohmann::ordered_json;

// Outputs past this size are stored gzipped: the capped scenarios print 5,000 rows each.
constexpr size_t kGzipAbove = 256 * 1024;

// The file's bytes, or nullopt: callers name the file and what was missing themselves.
std::optional<std::string> ReadFile(const std::string& path) {
  StatusOr<std::string> content = base::ReadFile(path);
  if (!content.ok()) return std::nullopt;
  return std::move(content).value();
}

bool WriteFile(const std::string& path, const std::string& data) {
  return base::WriteFileAtomically(path, data).ok();
}

std::optional<std::string> Gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return std::nullopt;
  std::string out;
  char buf[65536];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  const bool ok = n == 0;
  gzclose(f);
  if (!ok) return std::nullopt;
  return out;
}

bool Gzip(const std::string& path, const std::string& data) {
  // No name or time in the header, so a re-recording of the same bytes is the same file.
  gzFile f = gzopen(path.c_str(), "wb9");
  if (f == nullptr) return false;
  const bool ok = data.empty() ||
                  gzwrite(f, data.data(), static_cast<unsigned>(data.size())) ==
                      static_cast<int>(data.size());
  return gzclose(f) == Z_OK && ok;
}

std::string Sha256Hex(const std::string& data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  std::string hex;
  char buf[3];
  for (unsigned char b : digest) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    hex += buf;
  }
  return hex;
}

// The only run-to-run differences: the envelope's duration (indented, or compact in the host's
// last-chance envelope) and the proxy's port in a refusal.
std::string Normalize(const std::string& out, const std::string& proxy_port) {
  std::string result;
  result.reserve(out.size());
  const std::string duration = "\"duration\": ";
  const std::string compact_duration = "\"duration\":";
  const std::string proxy = "127.0.0.1:" + proxy_port;
  size_t i = 0;
  while (i < out.size()) {
    if (out.compare(i, duration.size(), duration) == 0 ||
        out.compare(i, compact_duration.size(), compact_duration) == 0) {
      const std::string& form =
          out[i + compact_duration.size()] == ' ' ? duration : compact_duration;
      result += form + "N";
      i += form.size();
      while (i < out.size() && std::isdigit(static_cast<unsigned char>(out[i]))) ++i;
    } else if (out.compare(i, proxy.size(), proxy) == 0 &&
               (i + proxy.size() == out.size() ||
                !std::isdigit(static_cast<unsigned char>(out[i + proxy.size()])))) {
      result += "127.0.0.1:PROXY_PORT";
      i += proxy.size();
    } else {
      result.push_back(out[i++]);
    }
  }
  return result;
}

}  // namespace

bool AddressSpaceLimitsApply() { return !base::kAddressSanitizerBuild; }

std::string Slug(const std::string& name) {
  std::string slug;
  for (unsigned char c : name) {
    if (std::isalnum(c)) {
      slug.push_back(static_cast<char>(std::tolower(c)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug.push_back('-');
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

// A scenario's env: names to set ("NAME=value") or, for null, to remove; an error or nullopt.
std::optional<std::string> ReadEnv(const Json& env, Scenario& s) {
  if (!env.is_object()) return "env must be an object";
  for (const auto& [name, value] : env.items()) {
    if (name.empty() || name.find('=') != std::string::npos) {
      return "env name '" + name + "' is not a variable name";
    }
    if (value.is_null()) {
      s.env.push_back(name);
    } else if (value.is_string()) {
      s.env.push_back(name + "=" + value.get<std::string>());
    } else {
      return "env values are strings, or null to remove the variable";
    }
  }
  return std::nullopt;
}

// One object of "scenarios" (names and slugs must be new); an error or nullopt.
std::optional<std::string> ReadScenario(const Json& entry, std::set<std::string>& names,
                                        std::set<std::string>& slugs, Scenario& s) {
  for (const auto& [key, value] : entry.items()) {
    if (key != "name" && key != "args" && key != "faults" && key != "env" &&
        key != "address_space_mib") {
      return "unknown key '" + key + "'";
    }
  }
  if (!entry.value("name", Json()).is_string() || entry["name"].get<std::string>().empty()) {
    return "name must be a non-empty string";
  }
  s.name = entry["name"].get<std::string>();
  s.slug = Slug(s.name);
  if (s.slug.empty()) return "name has no letters or digits";
  if (!names.insert(s.name).second) return "duplicate name '" + s.name + "'";
  if (!slugs.insert(s.slug).second) return "duplicate slug '" + s.slug + "'";
  const Json args = entry.value("args", Json());
  if (!args.is_array()) return "args must be an array of strings";
  for (const Json& a : args) {
    if (!a.is_string()) return "args must be an array of strings";
    s.args.push_back(a.get<std::string>());
  }
  if (entry.contains("env")) {
    if (std::optional<std::string> bad = ReadEnv(entry["env"], s)) return bad;
  }
  if (entry.contains("address_space_mib")) {
    const Json& mib = entry["address_space_mib"];
    if (!mib.is_number_integer() || mib.get<int64_t>() < 1) {
      return "address_space_mib must be a positive integer";
    }
    s.address_space_mib = mib.get<int64_t>();
  }
  if (entry.contains("faults")) {
    if (!entry["faults"].is_array()) return "faults must be an array";
    s.faults_json = entry["faults"].dump();
    for (const Json& fault : entry["faults"]) {
      if (!fault.is_object()) continue;  // the fake API refuses it, and names it
      for (const auto& [member, value] : fault.items()) {
        if (member != "times") s.fault_kinds.push_back(member);
      }
    }
  }
  return std::nullopt;
}

std::optional<ScenarioFile> LoadScenarios(const std::string& path, std::string& error) {
  const std::optional<std::string> text = ReadFile(path);
  if (!text) {
    error = path + ": cannot read";
    return std::nullopt;
  }
  const Json doc = Json::parse(*text, nullptr, false);
  auto fail = [&](const std::string& what) {
    error = path + ": " + what;
    return std::nullopt;
  };
  if (!doc.is_object()) return fail("not a JSON object");
  for (const auto& [key, value] : doc.items()) {
    if (key != "$schema" && key != "description" && key != "catalog" && key != "scenarios") {
      return fail("unknown key '" + key + "'");
    }
  }
  ScenarioFile file;
  file.sha256 = Sha256Hex(*text);
  const Json catalog = doc.value("catalog", Json());
  if (!catalog.is_object() || !catalog.value("seed", Json()).is_number_integer() ||
      !catalog.value("items", Json()).is_number_integer() || catalog.size() != 2) {
    return fail("catalog must be {\"seed\": integer, \"items\": integer}");
  }
  file.catalog_seed = catalog["seed"].get<int64_t>();
  file.catalog_items = catalog["items"].get<int64_t>();
  if (file.catalog_items < 1) return fail("catalog.items must be positive");
  const Json list = doc.value("scenarios", Json());
  if (!list.is_array()) return fail("scenarios must be an array");
  std::set<std::string> names, slugs;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string where = "scenarios[" + std::to_string(i) + "]";
    if (!list[i].is_object()) return fail(where + " is not an object");
    Scenario s;
    if (std::optional<std::string> bad = ReadScenario(list[i], names, slugs, s)) {
      return fail(where + ": " + *bad);
    }
    file.scenarios.push_back(std::move(s));
  }
  return file;
}

bool WriteRecording(const std::string& dir, const Scenario& s, const Outcome& o,
                    std::string& error) {
  if (!o.rig_error.empty() || o.timed_out) {
    error = s.slug + ": not recorded, the run did not complete (" + o.rig_error + ")";
    return false;
  }
  const std::string base = dir + "/" + s.slug;
  Json meta = Json::object();
  meta["name"] = s.name;
  meta["exit_code"] = o.exit_code;
  meta["requests"] = o.requests;
  std::remove((base + ".stdout").c_str());
  std::remove((base + ".stdout.gz").c_str());
  const bool ok = (o.out.size() > kGzipAbove ? Gzip(base + ".stdout.gz", o.out)
                                             : WriteFile(base + ".stdout", o.out)) &&
                  WriteFile(base + ".stderr", o.err) && WriteFile(base + ".json", meta.dump(2) + "\n");
  if (!ok) error = base + ": cannot write the recording";
  return ok;
}

std::optional<Outcome> ReadRecording(const std::string& dir, const Scenario& s,
                                     std::string& error) {
  const std::string base = dir + "/" + s.slug;
  const std::optional<std::string> meta_text = ReadFile(base + ".json");
  std::optional<std::string> out = ReadFile(base + ".stdout");
  if (!out) out = Gunzip(base + ".stdout.gz");
  const std::optional<std::string> err = ReadFile(base + ".stderr");
  if (!meta_text || !out || !err) {
    error = base + ": no complete recording (.json, .stdout or .stdout.gz, .stderr)";
    return std::nullopt;
  }
  const Json meta = Json::parse(*meta_text, nullptr, false);
  if (!meta.is_object() || meta.value("name", "") != s.name ||
      !meta.value("exit_code", Json()).is_number_integer() ||
      !meta.value("requests", Json()).is_array()) {
    error = base + ".json: not a recording of this scenario";
    return std::nullopt;
  }
  Outcome o;
  o.exit_code = meta["exit_code"].get<int>();
  o.out = *out;
  o.err = *err;
  for (const Json& r : meta["requests"]) o.requests.push_back(r.get<std::string>());
  return o;
}

std::string RunfilesPath(const std::string& workspace_relative) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) return workspace_relative;
  return std::string(srcdir) + "/" + workspace + "/" + workspace_relative;
}

const LoadedScenarios& TestScenarios() {
  static const LoadedScenarios loaded = [] {
    LoadedScenarios l;
    l.file = LoadScenarios(RunfilesPath("fakes/azmcp/scenarios.json"), l.error)
                 .value_or(ScenarioFile{});
    return l;
  }();
  return loaded;
}

std::string TestNameOf(const Scenario& s) {
  std::string name = s.slug;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

struct DifferentialRig::Parts {
  std::unique_ptr<fakes::test_support::PricesServerProcess> upstream;
  std::unique_ptr<egress::EgressProxy> proxy;
  std::string dir;
};

DifferentialRig::DifferentialRig(const ScenarioFile& file) : parts_(std::make_unique<Parts>()) {
  std::string catalog;
  fakes::prices::GenerateCatalog(static_cast<uint64_t>(file.catalog_seed),
                                 static_cast<size_t>(file.catalog_items),
                                 [&](const std::string& line) { catalog += line + "\n"; });
  parts_->upstream = std::make_unique<fakes::test_support::PricesServerProcess>(catalog);
  egress::ProxyOptions options;
  options.upstream_host = "127.0.0.1";
  options.upstream_port = parts_->upstream->port();
  options.upstream_ca_file = parts_->upstream->ca_file();
  options.log = [](const std::string&) {};
  parts_->proxy = std::make_unique<egress::EgressProxy>(options);
  if (!parts_->proxy->Start().ok()) return;
  const char* tmp = std::getenv("TEST_TMPDIR");
  if (tmp == nullptr) return;  // only runs under bazel test
  parts_->dir = tmp;
  ok_ = WriteFile(parts_->dir + "/egress-ca.pem", parts_->proxy->egress_ca_pem()) &&
        (mkdir((parts_->dir + "/home").c_str(), 0700) == 0 || errno == EEXIST);
}

DifferentialRig::~DifferentialRig() = default;

std::string DifferentialRig::unrelated_ca_file() const { return parts_->upstream->ca_file(); }

Outcome DifferentialRig::Run(const std::string& binary, const Scenario& s,
                             const std::vector<std::string>& env_overrides) {
  Outcome o;
  if (!parts_->upstream->Reset() ||
      (!s.faults_json.empty() && !parts_->upstream->AddFaults(s.faults_json))) {
    const std::string ended = parts_->upstream->Ended();
    o.rig_error = ended.empty() ? "the fake API refused the reset or the scenario's faults"
                                : "the fake API is not running: " + ended;
    return o;
  }
  std::vector<std::string> argv = {binary, "pricing", "get"};
  if (s.address_space_mib > 0) {
    // prlimit execs the CLI in its own process, so the CLI's exit or signal is the run's.
    argv.insert(argv.begin(), {"/usr/bin/prlimit",
                               "--as=" + std::to_string(s.address_space_mib << 20), "--"});
  }
  argv.insert(argv.end(), s.args.begin(), s.args.end());
  const std::string proxy_port = std::to_string(parts_->proxy->port());
  std::vector<std::string> env = {
      "HOME=" + parts_->dir + "/home", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
      "HTTPS_PROXY=http://127.0.0.1:" + proxy_port, "SSL_CERT_FILE=" + parts_->dir + "/egress-ca.pem",
      "AZURE_MCP_COLLECT_TELEMETRY=false", "AZURE_MCP_COLLECT_TELEMETRY_MICROSOFT=false"};
  std::vector<std::string> changes = s.env;
  changes.insert(changes.end(), env_overrides.begin(), env_overrides.end());
  for (std::string change : changes) {
    const size_t eq = change.find('=');
    const std::string name = change.substr(0, eq);
    std::erase_if(env, [&](const std::string& e) { return e.rfind(name + "=", 0) == 0; });
    if (eq == std::string::npos) continue;  // removal
    const std::string placeholder = "$UNRELATED_CA";
    if (change.substr(eq + 1) == placeholder) change = name + "=" + unrelated_ca_file();
    env.push_back(change);
  }
  const fakes::test_support::ProgramRun run = fakes::test_support::RunProgram(argv, env);
  o.exit_code = run.signal != 0 ? 128 + run.signal : run.exit_code;
  o.timed_out = run.timed_out;
  o.out = Normalize(run.out, proxy_port);
  o.raw_out = run.out;
  o.err = run.err;
  const Json log = Json::parse(parts_->upstream->RequestLog(), nullptr, false);
  if (log.is_array()) {
    for (const Json& r : log) {
      o.requests.push_back(r.value("method", "") + " " + r.value("target", ""));
    }
  }
  return o;
}

}  // namespace azure_pricing::fakes::azmcp
