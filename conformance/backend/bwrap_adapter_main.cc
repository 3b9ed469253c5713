// bwrap_adapter: the bubblewrap backend behind the backend protocol.
#include "conformance/backend/bwrap_adapter.h"
#include "ref/base/main_guard.h"

static int UnguardedMain(int argc, char** argv) {
  return azure_pricing::conformance::backend::RunBwrapAdapter(
      argc, argv, "bwrap_adapter", {}, "",
      [](azure_pricing::sandbox::bwrap::BwrapBackend&, const azure_pricing::base::Flags&,
         azure_pricing::conformance::backend::protocol::ServeOptions&) { return azure_pricing::OkStatus(); });
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("bwrap_adapter",
                                          [&] { return UnguardedMain(argc, argv); });
}
