#include "ref/labels/middleware.h"

#include "gtest/gtest.h"
#include "ref/labels/test_labels.h"

namespace azure_pricing::labels {
namespace {

using namespace ::azure_pricing::labels::test_labels;  // NOLINT: the shared test labels


struct Recorder {
  int runs = 0;
};

Tool EchoTool(Recorder* recorder, std::map<std::string, std::string> properties = {}) {
  Tool tool;
  tool.name = "echo";
  tool.additional_properties = std::move(properties);
  tool.func = [recorder](InvocationContext&) {
    ++recorder->runs;
    FunctionResult r;
    r.outcome = "completed";
    r.items.push_back({"output", "text", std::nullopt});
    return r;
  };
  return tool;
}

TEST(TrackerTest, PublishesConversationArgumentAndEffectiveLabels) {
  Recorder rec;
  Tool tool = EchoTool(&rec);
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kTrustedPrivate);
  InvocationContext ctx;
  ctx.argument_labels = {kUntrustedPublic};
  InvokeFunction(tool, ctx, {&tracker});
  EXPECT_EQ(ctx.metadata.context_label, kTrustedPrivate);
  EXPECT_EQ(ctx.metadata.argument_label, kUntrustedPublic);
  EXPECT_EQ(ctx.metadata.effective_invocation_label,
            (ContentLabel{Integrity::kUntrusted, Confidentiality::kPrivate}));
  EXPECT_EQ(rec.runs, 1);
}

TEST(TrackerTest, DeclaredSourceIntegrityReplacesTheArgumentJoin) {
  Recorder rec;
  Tool tool = EchoTool(&rec, {{kSourceIntegrity, "trusted"}});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx;
  ctx.argument_labels = {kUntrustedPublic};
  InvokeFunction(tool, ctx, {&tracker});
  ASSERT_TRUE(ctx.result.has_value());
  EXPECT_EQ(ctx.result->items[0].security_label, kTrustedPublic);
}

TEST(TrackerTest, NoLabelsAtAllGiveTheDefaultIntegrity) {
  Recorder rec;
  Tool tool = EchoTool(&rec);
  LabelTrackingFunctionMiddleware tracker({.auto_hide_untrusted = false});
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker});
  EXPECT_EQ(ctx.metadata.result_label, kUntrustedPublic);
  // The untrusted result, left visible, joins into the conversation.
  EXPECT_EQ(tracker.context_label(), kUntrustedPublic);
}

TEST(TrackerTest, ItemLabelsOnlyRestrictAndConfidentialityIsNeverLowered) {
  Recorder rec;
  Tool tool = EchoTool(&rec, {{kSourceIntegrity, "untrusted"}, {kConfidentiality, "private"}});
  tool.func = [](InvocationContext&) {
    FunctionResult r;
    r.items.push_back({"output", "text", kTrustedPublic});  // tries to raise and lower
    return r;
  };
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker});
  EXPECT_EQ(ctx.result->items[0].security_label,
            (ContentLabel{Integrity::kUntrusted, Confidentiality::kPrivate}));
}

TEST(TrackerTest, DeclaredPublicCannotLaunderAPrivateArgument) {
  Recorder rec;
  Tool tool = EchoTool(&rec, {{kSourceIntegrity, "trusted"}, {kConfidentiality, "public"}});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx;
  ctx.argument_labels = {kTrustedPrivate};
  InvokeFunction(tool, ctx, {&tracker});
  EXPECT_EQ(ctx.result->items[0].security_label, kTrustedPrivate);
}

TEST(PolicyTest, BlocksAPrivateConversationIntoAPublicSinkBeforeTheBody) {
  Recorder rec;
  Tool tool = EchoTool(&rec, {{kMaxAllowedConfidentiality, "public"}});
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kTrustedPrivate);
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker, &policy});
  EXPECT_EQ(rec.runs, 0);
  ASSERT_TRUE(ctx.blocked.has_value());
  EXPECT_EQ(ctx.blocked->violations, std::vector<std::string>{kViolationMaxAllowedConfidentiality});
  EXPECT_FALSE(ctx.result.has_value());
  ASSERT_EQ(policy.audit_log().size(), 1u);
  EXPECT_EQ(policy.audit_log()[0].subtype, kViolationMaxAllowedConfidentiality);
}

TEST(PolicyTest, BlocksAPrivateArgumentToo) {
  Recorder rec;
  Tool tool = EchoTool(&rec, {{kMaxAllowedConfidentiality, "public"}});
  LabelTrackingFunctionMiddleware tracker;
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx;
  ctx.argument_labels = {kTrustedPrivate};
  InvokeFunction(tool, ctx, {&tracker, &policy});
  EXPECT_EQ(rec.runs, 0);
  ASSERT_TRUE(ctx.blocked.has_value());
}

TEST(PolicyTest, AbsentCapMeansNoConfidentialityCheck) {
  Recorder rec;
  Tool tool = EchoTool(&rec);
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kTrustedPrivate);
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker, &policy});
  EXPECT_EQ(rec.runs, 1);
  EXPECT_FALSE(ctx.blocked.has_value());
}

TEST(PolicyTest, InvalidCapIsLoggedAndPasses) {
  Recorder rec;
  Tool tool = EchoTool(&rec, {{kMaxAllowedConfidentiality, "Public"}});
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kTrustedPrivate);
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker, &policy});
  EXPECT_EQ(rec.runs, 1);
  EXPECT_EQ(policy.warnings().size(), 1u);
}

TEST(PolicyTest, FailsOpenWithoutTheTrackerOrBeforeIt) {
  for (bool tracker_after : {false, true}) {
    Recorder rec;
    Tool tool = EchoTool(&rec, {{kMaxAllowedConfidentiality, "public"}});
    LabelTrackingFunctionMiddleware tracker;
    tracker.JoinIntoContext(kTrustedPrivate);
    PolicyEnforcementFunctionMiddleware policy(true);
    InvocationContext ctx;
    std::vector<FunctionMiddleware*> chain = {&policy};
    if (tracker_after) chain.push_back(&tracker);
    InvokeFunction(tool, ctx, chain);
    EXPECT_EQ(rec.runs, 1);
    EXPECT_FALSE(ctx.blocked.has_value());
    EXPECT_EQ(policy.warnings().size(), 1u);
  }
}

TEST(PolicyTest, UntrustedConversationOrArgumentsUnlessTheToolAcceptsThem) {
  for (bool accepts : {false, true}) {
    Recorder rec;
    Tool tool = EchoTool(&rec);
    if (accepts) tool.additional_properties[kAcceptsUntrusted] = "true";
    LabelTrackingFunctionMiddleware tracker;
    tracker.JoinIntoContext(kUntrustedPublic);
    PolicyEnforcementFunctionMiddleware policy(true);
    InvocationContext ctx;
    ctx.argument_labels = {kUntrustedPublic};
    InvokeFunction(tool, ctx, {&tracker, &policy});
    EXPECT_EQ(rec.runs, accepts ? 1 : 0);
    if (!accepts) {
      ASSERT_TRUE(ctx.blocked.has_value());
      EXPECT_EQ(ctx.blocked->violations,
                (std::vector<std::string>{kViolationUntrustedContext, kViolationUntrustedArguments}));
    }
  }
}

TEST(PolicyTest, WithoutBlockingAViolationIsOnlyLogged) {
  Recorder rec;
  Tool tool = EchoTool(&rec, {{kMaxAllowedConfidentiality, "public"}});
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kTrustedPrivate);
  PolicyEnforcementFunctionMiddleware policy(false);
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker, &policy});
  EXPECT_EQ(rec.runs, 1);
  EXPECT_FALSE(ctx.blocked.has_value());
  ASSERT_EQ(policy.audit_log().size(), 1u);
  EXPECT_EQ(policy.audit_log()[0].type, kAuditConfidentialityViolation);
}

}  // namespace
}  // namespace azure_pricing::labels
