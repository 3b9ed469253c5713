// bwrap_adapter: the bubblewrap backend behind the backend protocol.
#include "conformance/backend/bwrap_adapter.h"

int main(int argc, char** argv) {
  return azure_pricing::conformance::backend::RunBwrapAdapter(
      argc, argv, "bwrap_adapter", {}, "",
      [](azure_pricing::sandbox::bwrap::BwrapBackend&, const azure_pricing::base::Flags&) {
        return azure_pricing::OkStatus();
      });
}
