// The tool's error vocabulary: every reason code a call of azure_pricing_get can end with,
// declared once, with the outcome it belongs to. Code everywhere uses these names; the gate
// lists which of them no conformance case reaches.
#ifndef REF_PRICING_REASONS_H_
#define REF_PRICING_REASONS_H_

#include <array>
#include <string_view>

#include "ref/sandbox/backend.h"
#include "ref/sandbox/router.h"
#include "ref/status/status.h"

namespace azure_pricing::reasons {

// Refused before any sandbox: the arguments.
inline constexpr Reason kArgumentsTooLarge = "arguments_too_large";
inline constexpr Reason kMalformedArguments = "malformed_arguments";
inline constexpr Reason kUnknownArgument = "unknown_argument";
inline constexpr Reason kWrongType = "wrong_type";
inline constexpr Reason kDuplicateArgument = "duplicate_argument";
inline constexpr Reason kEmptyValue = "empty_value";
inline constexpr Reason kInvalidUtf8 = "invalid_utf8";
inline constexpr Reason kForbiddenCharacter = "forbidden_character";
inline constexpr Reason kValueTooLong = "value_too_long";
inline constexpr Reason kOptionLikeValue = "option_like_value";
inline constexpr Reason kUnbalancedFilter = "unbalanced_filter";
inline constexpr Reason kInvalidPriceType = "invalid_price_type";
inline constexpr Reason kInvalidServiceFamily = "invalid_service_family";
inline constexpr Reason kInvalidCurrency = "invalid_currency";
inline constexpr Reason kMissingFilter = "missing_filter";
inline constexpr Reason kServiceWithoutSku = "service_without_sku";
inline constexpr Reason kRegionCaseMismatch = "region_case_mismatch";
inline constexpr Reason kRegionWhitespace = "region_whitespace";

// Refused at attach or before the CLI runs: the host and its sandbox.
inline constexpr Reason kInvalidHostBounds = "invalid_host_bounds";
inline constexpr Reason kImageRequired = "image_required";
inline constexpr Reason kAgentIdRequired = "agent_id_required";
inline constexpr Reason kInvalidOutboundCap = "invalid_outbound_max_confidentiality";
inline constexpr Reason kBoundedExecMissing = "sandbox_bounded_exec_missing";

// Failed: the sandbox or the CLI's result.
inline constexpr Reason kExecFailed = "sandbox_exec_failed";
// The backend reports these two; the tool passes them on, and fails the same way itself when a
// result says it timed out or overflowed.
inline constexpr Reason kTimeout = sandbox::kExecTimeoutReason;
inline constexpr Reason kOutputLimit = sandbox::kExecOutputLimitReason;
inline constexpr Reason kStderrNotEmpty = "stderr_not_empty";
inline constexpr Reason kDuplicateKey = "duplicate_key";
inline constexpr Reason kNonFiniteNumber = "non_finite_number";
inline constexpr Reason kMalformedEnvelope = "malformed_envelope";
inline constexpr Reason kMalformedRow = "malformed_row";
inline constexpr Reason kCliFailed = "cli_failed";
inline constexpr Reason kUpstreamFilterRejected = "upstream_filter_rejected";
inline constexpr Reason kUpstreamNotFound = "upstream_not_found";
inline constexpr Reason kUpstreamValueUnknown = "upstream_value_unknown";

// Blocked by the host's policy middleware before the tool body ran.
inline constexpr Reason kPolicyViolation = "policy_violation";

struct ReasonCode {
  Outcome outcome;
  Reason code;
};

// Every reason a call of the tool can end with, including the router's and the backend's that
// the tool passes on unchanged. Each (outcome, code) pair appears once. The router's
// sandbox::kRouterDisabled is not one: a disabled router yields no tool (HOST-003) and a
// router's settings never change once it is built, so no call of the tool can meet it.
inline constexpr std::array kAll = {
    ReasonCode{Outcome::kRefused, kArgumentsTooLarge},
    ReasonCode{Outcome::kRefused, kMalformedArguments},
    ReasonCode{Outcome::kRefused, kUnknownArgument},
    ReasonCode{Outcome::kRefused, kWrongType},
    ReasonCode{Outcome::kRefused, kDuplicateArgument},
    ReasonCode{Outcome::kRefused, kEmptyValue},
    ReasonCode{Outcome::kRefused, kInvalidUtf8},
    ReasonCode{Outcome::kRefused, kForbiddenCharacter},
    ReasonCode{Outcome::kRefused, kValueTooLong},
    ReasonCode{Outcome::kRefused, kOptionLikeValue},
    ReasonCode{Outcome::kRefused, kUnbalancedFilter},
    ReasonCode{Outcome::kRefused, kInvalidPriceType},
    ReasonCode{Outcome::kRefused, kInvalidServiceFamily},
    ReasonCode{Outcome::kRefused, kInvalidCurrency},
    ReasonCode{Outcome::kRefused, kMissingFilter},
    ReasonCode{Outcome::kRefused, kServiceWithoutSku},
    ReasonCode{Outcome::kRefused, kRegionCaseMismatch},
    ReasonCode{Outcome::kRefused, kRegionWhitespace},
    ReasonCode{Outcome::kRefused, kInvalidHostBounds},
    ReasonCode{Outcome::kRefused, kImageRequired},
    ReasonCode{Outcome::kRefused, kAgentIdRequired},
    ReasonCode{Outcome::kRefused, kInvalidOutboundCap},
    ReasonCode{Outcome::kRefused, kBoundedExecMissing},
    ReasonCode{Outcome::kRefused, sandbox::kNoBackend},
    ReasonCode{Outcome::kRefused, sandbox::kOsFamilyUnsupported},
    ReasonCode{Outcome::kRefused, sandbox::kBackendNotPermitted},
    ReasonCode{Outcome::kRefused, sandbox::kIsolationBelowSpec},
    ReasonCode{Outcome::kRefused, sandbox::kCapabilityDenied},
    ReasonCode{Outcome::kRefused, sandbox::kCapabilityNotSupported},
    ReasonCode{Outcome::kRefused, sandbox::kEgressMethodsNotSupported},
    ReasonCode{Outcome::kRefused, sandbox::kEgressNotEnforced},
    ReasonCode{Outcome::kRefused, sandbox::kEgressMethodNotCovered},
    ReasonCode{Outcome::kFailed, sandbox::kAcquireFailed},
    ReasonCode{Outcome::kFailed, sandbox::kDisposeFailed},
    ReasonCode{Outcome::kFailed, kExecFailed},
    ReasonCode{Outcome::kFailed, kTimeout},
    ReasonCode{Outcome::kFailed, kOutputLimit},
    ReasonCode{Outcome::kFailed, kStderrNotEmpty},
    ReasonCode{Outcome::kFailed, kInvalidUtf8},
    ReasonCode{Outcome::kFailed, kDuplicateKey},
    ReasonCode{Outcome::kFailed, kNonFiniteNumber},
    ReasonCode{Outcome::kFailed, kMalformedEnvelope},
    ReasonCode{Outcome::kFailed, kMalformedRow},
    ReasonCode{Outcome::kFailed, kCliFailed},
    ReasonCode{Outcome::kFailed, kUpstreamFilterRejected},
    ReasonCode{Outcome::kFailed, kUpstreamNotFound},
    ReasonCode{Outcome::kFailed, kUpstreamValueUnknown},
    ReasonCode{Outcome::kBlocked, kPolicyViolation},
};

}  // namespace azure_pricing::reasons

#endif  // REF_PRICING_REASONS_H_
