// The labels the ref/labels tests name, declared once (testonly).
#ifndef REF_LABELS_TEST_LABELS_H_
#define REF_LABELS_TEST_LABELS_H_

#include "ref/labels/labels.h"

namespace azure_pricing::labels::test_labels {

inline constexpr ContentLabel kTrustedPublic{Integrity::kTrusted, Confidentiality::kPublic};
inline constexpr ContentLabel kUntrustedPublic{Integrity::kUntrusted, Confidentiality::kPublic};
inline constexpr ContentLabel kTrustedPrivate{Integrity::kTrusted, Confidentiality::kPrivate};
inline constexpr ContentLabel kUntrustedPrivate{Integrity::kUntrusted, Confidentiality::kPrivate};
inline constexpr ContentLabel kTrustedIdentity{Integrity::kTrusted,
                                               Confidentiality::kUserIdentity};
inline constexpr ContentLabel kUntrustedIdentity{Integrity::kUntrusted,
                                                 Confidentiality::kUserIdentity};

}  // namespace azure_pricing::labels::test_labels

#endif  // REF_LABELS_TEST_LABELS_H_
