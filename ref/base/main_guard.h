// The outermost frame of every program of the project. Our code reports errors as Status values
// and throws nothing, but the standard library can (std::bad_alloc, std::filesystem without an
// error_code, std::regex); an exception that reached main would end the program with
// "terminate called after throwing ..." and exit 134. GuardedMain turns it into one line on
// stderr naming the program and exit status 70 (EX_SOFTWARE: a defect of ours, not bad input).
// It guards the main thread only: a thread a program starts needs its own catch.
//
//   int main(int argc, char** argv) {
//     return azure_pricing::base::GuardedMain("zones", [&] { return Main(argc, argv); });
//   }
#ifndef REF_BASE_MAIN_GUARD_H_
#define REF_BASE_MAIN_GUARD_H_

#include <functional>
#include <string_view>

namespace azure_pricing::base {

inline constexpr int kExitInternalError = 70;

int GuardedMain(std::string_view program, const std::function<int()>& body);

}  // namespace azure_pricing::base

#endif  // REF_BASE_MAIN_GUARD_H_
