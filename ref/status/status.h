// Errors are values. A Status carries a stable reason code and a fixed message; neither may
// ever contain CLI output or query arguments, so both are built only from text in this source
// tree (see reason_code.h), never from runtime data.
#ifndef REF_STATUS_STATUS_H_
#define REF_STATUS_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace azure_pricing {

// Which way a call ended when it did not complete.
enum class Outcome {
  kCompleted,
  kRefused,  // the arguments, host options or sandbox were rejected before the CLI could run
  kFailed,   // the CLI ran (or was meant to) and its result was not accepted
  kBlocked,  // the host's policy middleware stopped the call before the tool body ran
};

std::string_view OutcomeName(Outcome outcome);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(Outcome outcome, std::string_view reason, std::string message)
      : outcome_(outcome), reason_(reason), message_(std::move(message)) {}

  bool ok() const { return reason_.empty(); }
  Outcome outcome() const { return ok() ? Outcome::kCompleted : outcome_; }
  // Stable, machine-readable: "empty_value", "duplicate_key", ...
  std::string_view reason() const { return reason_; }
  // Fixed text for a person or a model; never contains input data.
  const std::string& message() const { return message_; }

 private:
  Outcome outcome_ = Outcome::kCompleted;
  std::string_view reason_;  // always points at a string literal
  std::string message_;
};

[[nodiscard]] inline Status OkStatus() { return Status(); }

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T& operator*() const& { return *value_; }
  T& operator*() & { return *value_; }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace azure_pricing

#endif  // REF_STATUS_STATUS_H_
