// Whether this build runs under AddressSanitizer, whose programs reserve terabytes of shadow
// memory at start: no address-space limit (RLIMIT_AS) lets them run. The bubblewrap backend drops
// that one limit in such a build, and the tests that exercise it skip what it cannot show.
#ifndef REF_BASE_SANITIZERS_H_
#define REF_BASE_SANITIZERS_H_

namespace azure_pricing::base {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizerBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizerBuild = true;
#else
inline constexpr bool kAddressSanitizerBuild = false;
#endif
#else
inline constexpr bool kAddressSanitizerBuild = false;
#endif

}  // namespace azure_pricing::base

#endif  // REF_BASE_SANITIZERS_H_
