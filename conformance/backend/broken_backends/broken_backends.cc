#include "conformance/backend/broken_backends/broken_backends.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>

#include <cstring>
#include <string_view>
#include <utility>

#include "ref/egress/proxy.h"

extern char** environ;

namespace azure_pricing::egress {

// The one definition of the proxy's testing peer (see proxy.h).
class ProxyMutator {
 public:
  static void AllowAnyMethod(EgressProxy& proxy) { proxy.weakenings_.any_method = true; }
  static void SkipUpstreamVerification(EgressProxy& proxy) {
    proxy.weakenings_.unverified_upstream = true;
  }
  static void LaterRequestsUnchecked(EgressProxy& proxy) {
    proxy.weakenings_.later_requests_unchecked = true;
  }
  static void MethodCaseInsensitive(EgressProxy& proxy) {
    proxy.weakenings_.method_case_insensitive = true;
  }
  static void HostSuffixMatch(EgressProxy& proxy) { proxy.weakenings_.host_suffix_match = true; }
  static void HostHeaderUnchecked(EgressProxy& proxy) {
    proxy.weakenings_.host_header_unchecked = true;
  }
  static void SniUnchecked(EgressProxy& proxy) { proxy.weakenings_.sni_unchecked = true; }
  static void UpgradeUnchecked(EgressProxy& proxy) { proxy.weakenings_.upgrade_unchecked = true; }
  static void ResponseAltered(EgressProxy& proxy) { proxy.weakenings_.response_altered = true; }
  static void ResponseHeaderChanged(EgressProxy& proxy) {
    proxy.weakenings_.response_header_changed = true;
  }
  static void ResponseHeadRewritten(EgressProxy& proxy) {
    proxy.weakenings_.response_head_rewritten = true;
  }
  static void LaterRequestsMethodOnly(EgressProxy& proxy) {
    proxy.weakenings_.later_requests_method_only = true;
  }
  static void LeafMisnamed(EgressProxy& proxy) { proxy.weakenings_.leaf_misnamed = true; }
  static void RefusalsAnswered200(EgressProxy& proxy) {
    proxy.weakenings_.refusals_answered_200 = true;
  }
  static void IpLiteralAnswered200(EgressProxy& proxy) { proxy.weakenings_.ip_literal_answer = 200; }
  static void IpLiteralRefusedInsideTls(EgressProxy& proxy) {
    proxy.weakenings_.ip_literal_answer = 403;
  }
  static void UpstreamFailure503(EgressProxy& proxy) {
    proxy.weakenings_.upstream_failure_status = 503;
  }
};

}  // namespace azure_pricing::egress

namespace azure_pricing::sandbox::bwrap {

// The one definition of the backend's testing peer (see bwrap_backend.h).
class BackendMutator {
 public:
  static BwrapBackend::Weakenings& Weakenings(BwrapBackend& b) { return b.weakenings_; }
  static Status RestartEgress(BwrapBackend& b) {
    std::lock_guard<std::mutex> lock(b.egress_mu_);
    return b.StartEgress();
  }
};

}  // namespace azure_pricing::sandbox::bwrap

namespace azure_pricing::conformance::backend {
namespace {

using sandbox::bwrap::BackendMutator;
using sandbox::bwrap::BwrapBackend;

// The host's credential variables, as a backend that passes its environment through leaks them.
std::vector<std::string> HostCredentials() {
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    for (const char* prefix : {"AZURE_", "ARM_", "AWS_", "GOOGLE_", "MSI_", "IDENTITY_"}) {
      if (std::strncmp(*e, prefix, std::strlen(prefix)) == 0) out.emplace_back(*e);
    }
  }
  return out;
}

using ProxyWeakening = void (*)(egress::EgressProxy&);

Status WeakenProxy(BwrapBackend& b, ProxyWeakening weaken) {
  BackendMutator::Weakenings(b).weaken_proxy = weaken;
  return BackendMutator::RestartEgress(b);
}

// The mutants that are one flag of the backend's weakenings; null for any other name.
bool* BackendFlag(BwrapBackend& b, std::string_view name) {
  auto& w = BackendMutator::Weakenings(b);
  const std::pair<std::string_view, bool*> flags[] = {
      {"no_timeout_kill", &w.bounded.no_timeout_kill},
      {"no_output_cap", &w.bounded.no_output_cap},
      {"stderr_uncounted", &w.bounded.stderr_uncounted},
      {"partial_output_on_overflow", &w.bounded.partial_on_overflow},
      {"shared_network", &w.isolation.share_network},
      {"root_privileges", &w.isolation.keep_privileges},
      {"dispose_leaves_process", &w.dispose_leaves_process},
      {"shared_ipc", &w.isolation.shared_ipc},
      {"no_clearenv", &w.isolation.no_clearenv},
      {"host_root_visible", &w.isolation.host_root_visible},
      {"signal_exit_raw", &w.isolation.signal_exit_raw},
      {"overclaim", &w.overclaim},
      {"closed_egress_open", &w.closed_egress_open},
      {"fresh_state_per_exec", &w.fresh_state_per_exec},
      {"sandboxes_share_state", &w.sandboxes_share_state},
      {"conversation_scope_refused", &w.conversation_scope_refused},
      {"timeout_zero_unbounded", &w.timeout_zero_unbounded},
      {"state_left_at_dispose", &w.state_left_at_dispose},
      {"zero_budget_unbounded", &w.zero_budget_unbounded},
      {"missing_program_succeeds", &w.missing_program_succeeds},
  };
  for (const auto& [flag, field] : flags) {
    if (flag == name) return field;
  }
  return nullptr;
}

// The mutants that weaken the protocol server; null for any other name.
bool* ServeFlag(protocol::ServeOptions& serve, std::string_view name) {
  const std::pair<std::string_view, bool*> flags[] = {
      {"lax_protocol", &serve.lax},
      {"loose_error_answers", &serve.loose_error_answers},
      {"repeated_member_last_wins", &serve.repeated_member_last_wins},
      {"integers_saturate", &serve.integers_saturate},
      {"no_line_limit", &serve.no_line_limit},
      {"lone_surrogates_accepted", &serve.lone_surrogates_accepted},
  };
  for (const auto& [flag, field] : flags) {
    if (flag == name) return field;
  }
  return nullptr;
}

// The mutants that weaken the egress proxy; null for any other name.
ProxyWeakening ProxyWeakeningNamed(std::string_view name) {
  using egress::ProxyMutator;
  const std::pair<std::string_view, ProxyWeakening> weakenings[] = {
      {"post_allowed", ProxyMutator::AllowAnyMethod},
      {"upstream_unverified", ProxyMutator::SkipUpstreamVerification},
      {"later_requests_unchecked", ProxyMutator::LaterRequestsUnchecked},
      {"method_case_insensitive", ProxyMutator::MethodCaseInsensitive},
      {"host_suffix_match", ProxyMutator::HostSuffixMatch},
      {"host_header_unchecked", ProxyMutator::HostHeaderUnchecked},
      {"sni_unchecked", ProxyMutator::SniUnchecked},
      {"upgrade_forwarded", ProxyMutator::UpgradeUnchecked},
      {"response_altered", ProxyMutator::ResponseAltered},
      {"response_header_changed", ProxyMutator::ResponseHeaderChanged},
      {"response_head_rewritten", ProxyMutator::ResponseHeadRewritten},
      {"later_requests_method_only", ProxyMutator::LaterRequestsMethodOnly},
      {"proxy_leaf_misnamed", ProxyMutator::LeafMisnamed},
      {"refusal_answered_200", ProxyMutator::RefusalsAnswered200},
      {"ip_literal_answered_200", ProxyMutator::IpLiteralAnswered200},
      {"ip_literal_refused_inside_tls", ProxyMutator::IpLiteralRefusedInsideTls},
      {"upstream_failure_503", ProxyMutator::UpstreamFailure503},
  };
  for (const auto& [weakening, weaken] : weakenings) {
    if (weakening == name) return weaken;
  }
  return nullptr;
}

// A helper the adapter starts before it answers hello, as squid is started: stdin and stdout on
// /dev/null (the protocol's pipes are the adapter's alone), dying with the adapter. It starts a
// child that sleeps every 300 ms with `restart`, which kills and reaps the previous child first
// (as squid restarts its certificate helpers on reconfigure); without, every 50 ms, keeping
// every one (a tree that grows within any probe, as a process kept per sandbox would).
// A child it did not kill dying makes it kill the adapter's whole group, as squid gives up on
// helpers "crashing too rapidly": a suite that kills a helper's child breaks the backend.
void RunHelper(bool restart) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  pid_t child = -1;
  for (;;) {
    if (restart && child > 0) {
      kill(child, SIGKILL);
      waitpid(child, nullptr, 0);
    }
    child = fork();
    if (child == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      pause();
      _exit(0);
    }
    const timespec step{0, restart ? 300'000'000 : 50'000'000};
    nanosleep(&step, nullptr);
    int status = 0;
    if (waitpid(-1, &status, WNOHANG) > 0) kill(0, SIGKILL);
  }
}

// Returns once the helper's stdin is /dev/null: answering hello before would let the suite find
// the protocol's pipe on the helper's fd 0 and take the helper for the adapter's own process.
Status StartHelper(bool restart) {
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) return ProgramError(kHelperNotStarted, "cannot start the helper");
  const pid_t helper = fork();
  if (helper == 0) {
    close(ready[0]);
    const int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    close(ready[1]);
    RunHelper(restart);
  }
  close(ready[1]);
  pollfd closed{ready[0], POLLIN, 0};
  const bool started = helper > 0 && poll(&closed, 1, 10'000) == 1;
  close(ready[0]);
  if (!started) return ProgramError(kHelperNotStarted, "the helper did not start in 10 s");
  return OkStatus();
}

// Bounded exec, exec fidelity, isolation, disposal and specs: the backend's weakenings.
std::vector<MutantInfo> SandboxMutants() {
  return {
      {"no_timeout_kill", "bounded.timeout", "nothing is killed at the timeout"},
      {"grandchildren_survive", "bounded.timeout_kills_tree",
       "no PID namespace and only the direct child is killed"},
      {"no_output_cap", "bounded.output_limit", "output is read whatever the budget"},
      {"stderr_uncounted", "bounded.stderr_counts", "only stdout counts toward the budget"},
      {"partial_output_on_overflow", "bounded.no_partial_output",
       "an overflow returns what was read as success"},
      {"shared_tmp", "isolation.files_between_calls", "/tmp is one host directory for every call"},
      {"shared_network", "isolation.network", "the network namespace is not unshared"},
      {"root_privileges", "isolation.no_privileges",
       "the caller's uid and capabilities are kept inside"},
      {"credentials_leaked", "isolation.credentials",
       "the host's credential variables are passed into the sandbox"},
      {"dispose_leaves_process", "disposal.nothing_left",
       "a per-sandbox keeper process is never stopped"},
      {"shared_ipc", "isolation.ipc", "the IPC namespace is not unshared"},
      {"state_left_at_dispose", "disposal.files_removed",
       "dispose leaves the sandbox's /tmp and HOME on the host"},
      {"no_clearenv", "exec.no_path",
       "the environment is not cleared, so bubblewrap's own PATH reaches the program"},
      {"host_root_visible", "isolation.host_files",
       "the host's whole root is bound read-only at /tmp/.host-root"},
      {"overclaim", "spec.undeclared", "acquire serves specs beyond the declaration"},
      {"fresh_state_per_exec", "exec.second_exec", "every exec gets a fresh tmpfs /tmp and HOME"},
      {"sandboxes_share_state", "isolation.concurrent_sandboxes",
       "live sandboxes share one /tmp and HOME, emptied when the last is disposed"},
      {"conversation_scope_refused", "spec.scopes_and_cleanup",
       "acquire refuses conversation-scoped specs"},
      {"timeout_zero_unbounded", "exec.timeout_zero", "a timeout of 0 means no timeout"},
      {"signal_exit_raw", "exec.signal_exit_code",
       "a program killed by a signal exits -1 (255), not 128+N"},
      {"zero_budget_unbounded", "bounded.zero_budget", "a max_output_bytes of 0 means no limit"},
      {"missing_program_succeeds", "exec.missing_program",
       "a program that cannot be found comes back ok with exit 0"},
      {"helper_keeps_children", "disposal.nothing_left",
       "a helper started before hello starts a process every 50 ms and never stops one"},
  };
}

// The egress proxy's weakenings.
std::vector<MutantInfo> EgressMutants() {
  return {
      {"post_allowed", "egress.post_refused", "the proxy forwards any method"},
      {"upstream_unverified", "egress.upstream_verified",
       "the proxy accepts any upstream certificate"},
      {"later_requests_unchecked", "egress.same_tunnel_requests",
       "the proxy keeps a tunnel open and forwards every request after the first unchecked"},
      {"method_case_insensitive", "egress.method_case",
       "the proxy compares the method case-insensitively and forwards `get` as sent"},
      {"host_suffix_match", "egress.host_suffix",
       "the proxy opens a tunnel to any host that ends with the allowed name"},
      {"host_header_unchecked", "egress.host_header_mismatch",
       "the proxy never compares Host with the CONNECT host"},
      {"sni_unchecked", "egress.sni_mismatch",
       "the proxy never compares the SNI with the CONNECT host"},
      {"closed_egress_open", "egress.closed",
       "a sandbox with closed egress still gets the proxy and HTTPS_PROXY"},
      {"upgrade_forwarded", "egress.upgrade_refused",
       "the proxy never looks at Upgrade and forwards the request with it"},
      {"response_altered", "egress.response_unchanged",
       "the proxy adds a `Via` header to every response it passes back"},
      {"response_header_changed", "egress.response_unchanged",
       "the proxy rewrites the value of the response's `Cache-Control` (`max-age=3600`), an "
       "end-to-end field"},
      {"later_requests_method_only", "egress.same_tunnel_host_and_target",
       "the proxy keeps a tunnel open and judges each later request by its method only"},
      {"proxy_leaf_misnamed", "cli.lookup",
       "the proxy's certificate names management.azure.com, so every verified handshake fails",
       "TLS handshake failed: certificate verify failed"},
      {"refusal_answered_200", "egress.method_case",
       "the proxy answers every request it refuses inside the tunnel with its own `200 OK`"},
      {"ip_literal_answered_200", "egress.ip_literal_refused",
       "the proxy accepts a CONNECT to an IP literal and answers inside TLS with its own "
       "`200 OK`"},
  };
}

// The protocol server's weakenings.
std::vector<MutantInfo> ProtocolMutants() {
  return {
      {"lax_protocol", "protocol.unknown_member",
       "the adapter drops unknown members and ignores seq order"},
      {"loose_error_answers", "protocol.before_hello",
       "error answers lack \"ok\": they carry an error without saying the request failed"},
      {"repeated_member_last_wins", "protocol.repeated_member",
       "the adapter reads a repeated member as its last value"},
      {"integers_saturate", "protocol.integer_range",
       "the adapter clamps an integer outside signed 64 bits to the nearest bound"},
      {"no_line_limit", "protocol.line_too_long", "the adapter reads lines of any length"},
      {"lone_surrogates_accepted", "protocol.lone_surrogate",
       "the adapter reads a lone surrogate escape as U+FFFD"},
  };
}

}  // namespace

const std::vector<MutantInfo>& Mutants() {
  static const std::vector<MutantInfo> kMutants = [] {
    std::vector<MutantInfo> all = SandboxMutants();
    for (std::vector<MutantInfo> part : {EgressMutants(), ProtocolMutants()}) {
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }();
  return kMutants;
}

const std::vector<MutantInfo>& SecondaryCatches() {
  static const std::vector<MutantInfo> kCatches = {
      {"post_allowed", "egress.other_methods_refused",
       "the proxy forwards any method: HEAD reaches the upstream"},
      {"upstream_unverified", "egress.upstream_name_verified",
       "the proxy accepts any upstream certificate: one for another name too"},
      {"proxy_leaf_misnamed", "egress.get_allowed",
       "the program's own GET fails the handshake, and its line names the certificate",
       "TLS handshake failed: certificate verify failed"},
      {"refusal_answered_200", "egress.post_refused",
       "a POST refused with the proxy's own `200 OK` reads as one that got through"},
  };
  return kCatches;
}

const std::vector<MutantInfo>& Variations() {
  static const std::vector<MutantInfo> kVariations = {
      {"ip_literal_refused_inside_tls", "egress.ip_literal_refused",
       "a CONNECT to an IP literal is accepted and refused with 403 inside TLS, with a "
       "certificate that names the literal only as a DNS name (squid's ssl-bump)"},
      {"upstream_failure_503", "egress.upstream_verified",
       "an upstream that does not verify is answered 503 (squid), not 502"},
      {"upstream_failure_503", "egress.upstream_name_verified",
       "an upstream whose certificate names another host is answered 503 (squid), not 502"},
      {"helper_restarts_children", "disposal.nothing_left",
       "a helper started before hello restarts its child every 300 ms (squid's certificate "
       "helpers on reconfigure), and brings the adapter down if one is killed"},
      {"helper_restarts_children", "egress.get_allowed",
       "the same helper, alive across the probes before this one"},
      {"response_head_rewritten", "egress.response_unchanged",
       "the proxy writes the response's field names in their usual case, replaces the hop-by-hop "
       "fields (`Connection`, the field it names) with `Connection: keep-alive` and `Keep-Alive`, "
       "and adds a `Date` where the upstream sent none (squid)"},
  };
  return kVariations;
}

Status ApplyMutant(BwrapBackend& b, std::string_view name, conformance::backend::protocol::ServeOptions& serve) {
  auto& w = BackendMutator::Weakenings(b);
  if (bool* flag = BackendFlag(b, name)) {
    *flag = true;
  } else if (ProxyWeakening weaken = ProxyWeakeningNamed(name)) {
    return WeakenProxy(b, weaken);
  } else if (name == "grandchildren_survive") {
    w.bounded.group_survives = true;
    w.isolation.no_pid_namespace = true;
  } else if (name == "shared_tmp") {
    w.isolation.shared_tmp = b.state_dir() + "/shared-tmp";
    mkdir(w.isolation.shared_tmp.c_str(), 0777);
  } else if (name == "helper_keeps_children" || name == "helper_restarts_children") {
    return StartHelper(name == "helper_restarts_children");
  } else if (name == "credentials_leaked") {
    w.isolation.extra_env = HostCredentials();
  } else if (bool* serve_flag = ServeFlag(serve, name)) {
    *serve_flag = true;
  } else {
    return ProgramError(kUnknownMutant, "no mutant has that name");
  }
  return OkStatus();
}

}  // namespace azure_pricing::conformance::backend
