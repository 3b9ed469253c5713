// mutant_adapter: the bubblewrap backend with one named weakening, behind the backend protocol.
#include "conformance/backend/bwrap_adapter.h"
#include "conformance/backend/mutants/mutants.h"

int main(int argc, char** argv) {
  namespace base = azure_pricing::base;
  return azure_pricing::conformance::backend::RunBwrapAdapter(
      argc, argv, "mutant_adapter", {{"--mutant", base::FlagKind::kValue}}, " --mutant NAME",
      [](azure_pricing::sandbox::bwrap::BwrapBackend& backend, const base::Flags& flags,
         azure_pricing::conformance::backend::protocol::ServeOptions& serve) {
        return azure_pricing::conformance::backend::ApplyMutant(
            backend, flags.Value("--mutant").value_or(""), serve);
      });
}
