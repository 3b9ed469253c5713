// broken_adapter: the bubblewrap backend with one named weakening, behind the backend protocol.
#include "conformance/backend/broken_backends/broken_backends.h"
#include "conformance/backend/bwrap_adapter.h"

int main(int argc, char** argv) {
  namespace base = azure_pricing::base;
  return azure_pricing::conformance::backend::RunBwrapAdapter(
      argc, argv, "broken_adapter", {{"--mutant", base::FlagKind::kValue}}, " --mutant NAME",
      [](azure_pricing::sandbox::bwrap::BwrapBackend& backend, const base::Flags& flags,
         azure_pricing::conformance::backend::protocol::ServeOptions& serve) {
        return azure_pricing::conformance::backend::ApplyMutant(
            backend, flags.Value("--mutant").value_or(""), serve);
      });
}
