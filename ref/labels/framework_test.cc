// One test per decision in FRAMEWORK.md: where this model of the framework's FIDES middleware
// follows Agent Framework core 1.18, 1.19 or the specification, and against which alternative.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "gtest/gtest.h"
#include "ref/labels/test_labels.h"
#include "ref/labels/middleware.h"

namespace azure_pricing::labels {
namespace {

using namespace ::azure_pricing::labels::test_labels;  // NOLINT: the shared test labels


// A tool whose body returns the given items; `runs` counts how often the body ran.
Tool ItemsTool(std::vector<Content> items, std::map<std::string, std::string> properties = {},
               int* runs = nullptr) {
  Tool tool;
  tool.name = "fetch";
  tool.additional_properties = std::move(properties);
  tool.func = [items = std::move(items), runs](InvocationContext&) {
    if (runs != nullptr) ++*runs;
    FunctionResult r;
    r.outcome = "completed";
    r.items = items;
    return r;
  };
  return tool;
}

Content Item(std::string text, std::optional<ContentLabel> label = std::nullopt) {
  return {"output", std::move(text), label};
}

// Ends the chain without running the body and without blocking, as a middleware may.
class StopMiddleware : public FunctionMiddleware {
 public:
  void Process(InvocationContext&, const std::function<void()>&) override {}
};

TEST(FrameworkDecisionTest, D1ItemLabelsOnlyRestrictTheFallback) {
  CITES("INTEG-004", "INTEG-005");
  // Under an untrusted declaration an item stamped trusted/public stays untrusted and keeps the
  // host's private classification; 1.18 would have made it trusted.
  Tool untrusted = ItemsTool({Item("report", kTrustedPublic)},
                             {{kSourceIntegrity, "untrusted"}, {kConfidentiality, "private"}});
  LabelTrackingFunctionMiddleware tracker({.auto_hide_untrusted = false});
  InvocationContext ctx;
  InvokeFunction(untrusted, ctx, {&tracker});
  ASSERT_TRUE(ctx.result.has_value());
  EXPECT_EQ(ctx.result->items[0].security_label, kUntrustedPrivate);
  // Under a trusted declaration a stamp still restricts, which is how a tool keeps one item
  // untrusted beside trusted ones.
  Tool trusted = ItemsTool({Item("fixed"), Item("report", kUntrustedPublic)},
                           {{kSourceIntegrity, "trusted"}});
  InvocationContext second;
  InvokeFunction(trusted, second, {&tracker});
  EXPECT_EQ(second.result->items[0].security_label, kTrustedPublic);
  EXPECT_EQ(second.result->items[1].security_label, kUntrustedPublic);
}

TEST(FrameworkDecisionTest, D2UntrustedItemsAreHiddenWhileTheConversationIsTrusted) {
  Tool tool = ItemsTool({Item("fixed", kTrustedPublic), Item("report", kUntrustedPrivate)},
                        {{kSourceIntegrity, "trusted"}});
  LabelTrackingFunctionMiddleware tracker;  // the framework's default: hiding on
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker});
  ASSERT_TRUE(ctx.result.has_value());
  const Content& fixed = ctx.result->items[0];
  const Content& report = ctx.result->items[1];
  EXPECT_FALSE(fixed.variable_id.has_value());
  ASSERT_TRUE(report.variable_id.has_value());
  EXPECT_EQ(LabelTrackingFunctionMiddleware::ModelView(report),
            "{\"type\":\"variable_reference\",\"variable_id\":\"" + *report.variable_id +
                "\",\"security_label\":{\"integrity\":\"untrusted\",\"confidentiality\":"
                "\"private\"}}");
  const auto stored = tracker.FindVariable(*report.variable_id);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->text, "report");
  EXPECT_EQ(stored->label, kUntrustedPrivate);
  EXPECT_EQ(stored->function, "fetch");
  // Hidden: no integrity taint, but its confidentiality counts.
  EXPECT_EQ(tracker.context_label(), kTrustedPrivate);
  EXPECT_EQ(ctx.metadata.result_label, kUntrustedPrivate);

  // A conversation tainted already gains nothing from hiding: the item is shown.
  LabelTrackingFunctionMiddleware tainted;
  tainted.JoinIntoContext(kUntrustedPublic);
  InvocationContext shown;
  InvokeFunction(tool, shown, {&tainted});
  EXPECT_FALSE(shown.result->items[1].variable_id.has_value());
  EXPECT_TRUE(tainted.ListVariables().empty());

  // With hiding off the item is shown and taints the conversation.
  LabelTrackingFunctionMiddleware visible({.auto_hide_untrusted = false});
  InvocationContext off;
  InvokeFunction(tool, off, {&visible});
  EXPECT_FALSE(off.result->items[1].variable_id.has_value());
  EXPECT_EQ(visible.context_label(), kUntrustedPrivate);
}

TEST(FrameworkDecisionTest, D3AnEmptyResultJoinsOnlyConfidentiality) {
  // Nothing reached the model, so the untrusted fallback cannot taint integrity.
  Tool tool = ItemsTool({}, {{kConfidentiality, "private"}});
  LabelTrackingFunctionMiddleware tracker({.auto_hide_untrusted = false});
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker});
  EXPECT_EQ(ctx.metadata.result_label, kUntrustedPrivate);
  EXPECT_EQ(tracker.context_label(), kTrustedPrivate);
}

TEST(FrameworkDecisionTest, D4ABlockReturnsTheFirstViolationAndNamesOnlyWhatItHas) {
  const auto blocked_result = [](const ContentLabel& conversation,
                                 std::vector<ContentLabel> arguments) {
    Tool tool = ItemsTool({Item("x")}, {{kMaxAllowedConfidentiality, "public"}});
    LabelTrackingFunctionMiddleware tracker;
    tracker.JoinIntoContext(conversation);
    PolicyEnforcementFunctionMiddleware policy(true);
    InvocationContext ctx;
    ctx.argument_labels = std::move(arguments);
    InvokeFunction(tool, ctx, {&tracker, &policy});
    if (!ctx.blocked.has_value()) return std::string("not blocked");
    // The host's report keeps its own sentence, which says "blocked" and "policy".
    EXPECT_EQ(ctx.blocked->error, kBlockedError);
    return FrameworkResultJson(*ctx.blocked);
  };
  // untrusted_context alone: the framework names no violation_type and lists nothing.
  EXPECT_EQ(blocked_result(kUntrustedPublic, {}),
            "{\"error\":\"Policy violation: Tool cannot be called in untrusted context\","
            "\"function\":\"fetch\",\"context_label\":{\"integrity\":\"untrusted\","
            "\"confidentiality\":\"public\"}}");
  EXPECT_EQ(blocked_result(kTrustedPublic, {kUntrustedPublic}),
            "{\"error\":\"Policy violation: Tool cannot receive untrusted variable content\","
            "\"function\":\"fetch\",\"context_label\":{\"integrity\":\"trusted\","
            "\"confidentiality\":\"public\"},\"violation_type\":\"untrusted_arguments\"}");
  // Two violations: the first one's text, and the list.
  EXPECT_EQ(blocked_result(kUntrustedPrivate, {}),
            "{\"error\":\"Policy violation: Tool cannot be called in untrusted context\","
            "\"function\":\"fetch\",\"context_label\":{\"integrity\":\"untrusted\","
            "\"confidentiality\":\"private\"},\"violations\":[\"untrusted_context\","
            "\"max_allowed_confidentiality\"]}");
  EXPECT_EQ(blocked_result(kTrustedPrivate, {}),
            "{\"error\":\"Policy violation: Cannot write PRIVATE data to PUBLIC destination (data "
            "exfiltration blocked)\",\"function\":\"fetch\",\"context_label\":{\"integrity\":"
            "\"trusted\",\"confidentiality\":\"private\"},\"violation_type\":"
            "\"max_allowed_confidentiality\"}");
}

TEST(FrameworkDecisionTest, D5TheAuditLogHasOneEntryPerViolation) {
  for (bool block : {true, false}) {
    Tool tool = ItemsTool({Item("x")}, {{kMaxAllowedConfidentiality, "public"}});
    LabelTrackingFunctionMiddleware tracker;
    tracker.JoinIntoContext(kUntrustedPrivate);
    PolicyEnforcementFunctionMiddleware policy(block);
    InvocationContext ctx;
    ctx.argument_labels = {kUntrustedPublic};
    InvokeFunction(tool, ctx, {&tracker, &policy});
    EXPECT_EQ(ctx.blocked.has_value(), block);
    const auto& log = policy.audit_log();
    ASSERT_EQ(log.size(), 3u) << block;
    EXPECT_EQ(log[0].type, kViolationUntrustedContext);
    EXPECT_FALSE(log[0].argument_label.has_value());
    EXPECT_EQ(log[1].type, kViolationUntrustedArguments);
    EXPECT_EQ(log[1].argument_label, kUntrustedPublic);
    EXPECT_EQ(log[2].type, kAuditConfidentialityViolation);
    EXPECT_EQ(log[2].subtype, kViolationMaxAllowedConfidentiality);
    EXPECT_EQ(log[2].effective_label, kUntrustedPrivate);
    for (const auto& entry : log) {
      EXPECT_EQ(entry.function, "fetch");
      EXPECT_EQ(entry.context_label, kUntrustedPrivate);
    }
  }
}

TEST(FrameworkDecisionTest, D6OnlyTheBooleanTrueExemptsFromTheIntegrityChecks) {
  for (const char* flag : {"true", "True", "1", "yes", "false", ""}) {
    int runs = 0;
    Tool tool = ItemsTool({Item("x")}, {{kAcceptsUntrusted, flag}}, &runs);
    LabelTrackingFunctionMiddleware tracker;
    tracker.JoinIntoContext(kUntrustedPublic);
    PolicyEnforcementFunctionMiddleware policy(true);
    InvocationContext ctx;
    InvokeFunction(tool, ctx, {&tracker, &policy});
    EXPECT_EQ(runs, std::string(flag) == "true" ? 1 : 0) << flag;
  }
  // The exemption never reaches the confidentiality check.
  int runs = 0;
  Tool sink = ItemsTool({Item("x")},
                        {{kAcceptsUntrusted, "true"}, {kMaxAllowedConfidentiality, "public"}},
                        &runs);
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kUntrustedPrivate);
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx;
  InvokeFunction(sink, ctx, {&tracker, &policy});
  EXPECT_EQ(runs, 0);
  ASSERT_TRUE(ctx.blocked.has_value());
  EXPECT_EQ(ctx.blocked->violations, std::vector<std::string>{kViolationMaxAllowedConfidentiality});
}

TEST(FrameworkDecisionTest, D7NoResultWritesTheFallbackLabelAndJoinsNothing) {
  Tool tool = ItemsTool({Item("x")}, {{kConfidentiality, "private"}});
  LabelTrackingFunctionMiddleware tracker;
  StopMiddleware stop;
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker, &stop});
  EXPECT_FALSE(ctx.result.has_value());
  EXPECT_EQ(ctx.metadata.result_label, kUntrustedPrivate);
  EXPECT_EQ(tracker.context_label(), kTrustedPublic);
  // A blocked call is different: the framework's chain ends in an exception, nothing is labelled.
  Tool capped = ItemsTool({Item("x")}, {{kMaxAllowedConfidentiality, "public"}});
  LabelTrackingFunctionMiddleware private_conversation;
  private_conversation.JoinIntoContext(kTrustedPrivate);
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext blocked;
  InvokeFunction(capped, blocked, {&private_conversation, &policy});
  ASSERT_TRUE(blocked.blocked.has_value());
  EXPECT_FALSE(blocked.metadata.result_label.has_value());
  EXPECT_EQ(private_conversation.context_label(), kTrustedPrivate);
}

TEST(FrameworkDecisionTest, D9ViolationsGoToTheAuditLogNotToTheWarnings) {
  Tool tool = ItemsTool({Item("x")}, {{kMaxAllowedConfidentiality, "public"}});
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kUntrustedPrivate);
  PolicyEnforcementFunctionMiddleware log_only(false);
  InvocationContext ctx;
  InvokeFunction(tool, ctx, {&tracker, &log_only});
  EXPECT_EQ(log_only.audit_log().size(), 2u);
  EXPECT_TRUE(log_only.warnings().empty());
  // What leaves no audit entry is a warning: a call the policy could not check.
  PolicyEnforcementFunctionMiddleware unchecked(true);
  InvocationContext bare;
  InvokeFunction(tool, bare, {&unchecked});
  EXPECT_TRUE(unchecked.audit_log().empty());
  EXPECT_EQ(unchecked.warnings().size(), 1u);
}

TEST(FrameworkDecisionTest, D8FrameworkHeldArgumentLabelsAreTheTier3Baseline) {
  // No declaration: the labels the framework holds for the arguments decide, and with none the
  // default integrity. A trusted held label gives a trusted result under both 1.18 and 1.19.
  const auto result_label = [](std::vector<ContentLabel> arguments) {
    Tool tool = ItemsTool({Item("x")});
    LabelTrackingFunctionMiddleware tracker({.auto_hide_untrusted = false});
    InvocationContext ctx;
    ctx.argument_labels = std::move(arguments);
    InvokeFunction(tool, ctx, {&tracker});
    return ctx.metadata.result_label;
  };
  EXPECT_EQ(result_label({kTrustedPublic}), kTrustedPublic);
  EXPECT_EQ(result_label({kTrustedPublic, kUntrustedPrivate}), kUntrustedPrivate);
  EXPECT_EQ(result_label({}), kUntrustedPublic);
}

}  // namespace
}  // namespace azure_pricing::labels
