#include "conformance/backend/mutants/mutants.h"

#include <sys/stat.h>

#include <cstring>

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

Status WeakenProxy(BwrapBackend& b, void (*weaken)(egress::EgressProxy&)) {
  BackendMutator::Weakenings(b).weaken_proxy = weaken;
  return BackendMutator::RestartEgress(b);
}

}  // namespace

const std::vector<MutantInfo>& Mutants() {
  static const std::vector<MutantInfo> kMutants = {
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
      {"post_allowed", "egress.post_refused", "the proxy forwards any method"},
      {"upstream_unverified", "egress.upstream_verified",
       "the proxy accepts any upstream certificate"},
      {"credentials_leaked", "isolation.credentials",
       "the host's credential variables are passed into the sandbox"},
      {"dispose_leaves_process", "disposal.nothing_left",
       "a per-sandbox keeper process is never stopped"},
  };
  return kMutants;
}

Status ApplyMutant(BwrapBackend& b, std::string_view name) {
  auto& w = BackendMutator::Weakenings(b);
  if (name == "no_timeout_kill") {
    w.bounded.no_timeout_kill = true;
  } else if (name == "grandchildren_survive") {
    w.bounded.group_survives = true;
    w.isolation.no_pid_namespace = true;
  } else if (name == "no_output_cap") {
    w.bounded.no_output_cap = true;
  } else if (name == "stderr_uncounted") {
    w.bounded.stderr_uncounted = true;
  } else if (name == "partial_output_on_overflow") {
    w.bounded.partial_on_overflow = true;
  } else if (name == "shared_tmp") {
    w.isolation.shared_tmp = b.state_dir() + "/shared-tmp";
    mkdir(w.isolation.shared_tmp.c_str(), 0777);
  } else if (name == "shared_network") {
    w.isolation.share_network = true;
  } else if (name == "root_privileges") {
    w.isolation.keep_privileges = true;
  } else if (name == "post_allowed") {
    return WeakenProxy(b, egress::ProxyMutator::AllowAnyMethod);
  } else if (name == "upstream_unverified") {
    return WeakenProxy(b, egress::ProxyMutator::SkipUpstreamVerification);
  } else if (name == "credentials_leaked") {
    w.isolation.extra_env = HostCredentials();
  } else if (name == "dispose_leaves_process") {
    w.dispose_leaves_process = true;
  } else {
    return Status(Outcome::kRefused, kUnknownMutant, "no mutant has that name");
  }
  return OkStatus();
}

}  // namespace azure_pricing::conformance::backend
