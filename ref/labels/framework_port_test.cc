// The framework's own tests of its label tracker and policy (Agent Framework core 1.18,
// tests/test_security.py), rewritten from what each one checks against this model. FRAMEWORK.md
// maps every upstream test to the test here, or says why it has none. Where a decision there
// makes this model differ on purpose, the test asserts this model's behaviour and says so.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ref/labels/test_labels.h"
#include "ref/labels/middleware.h"

namespace azure_pricing::labels {
namespace {

using namespace ::azure_pricing::labels::test_labels;  // NOLINT: the shared test labels


constexpr LabelTrackingFunctionMiddleware::Options kShowAll{.auto_hide_untrusted = false};

// A tool named `name` whose body returns `items` and counts its runs.
struct Fixture {
  explicit Fixture(std::string name = "mock_function",
                   std::map<std::string, std::string> properties = {},
                   std::vector<Content> items = {{"output", "mock result", std::nullopt}}) {
    tool.name = std::move(name);
    tool.additional_properties = std::move(properties);
    tool.func = [this, items = std::move(items)](InvocationContext&) {
      ++runs;
      FunctionResult r;
      r.outcome = "completed";
      r.items = items;
      return r;
    };
  }

  InvocationContext Call(const std::vector<FunctionMiddleware*>& chain,
                         std::vector<ContentLabel> argument_labels = {}) {
    InvocationContext ctx;
    ctx.argument_labels = std::move(argument_labels);
    InvokeFunction(tool, ctx, chain);
    return ctx;
  }

  Tool tool;
  int runs = 0;
};

Content Labelled(std::string text, ContentLabel label) { return {"item", std::move(text), label}; }

// --- TestCombineLabels, TestContentLabel --------------------------------------------------------

TEST(LabelPortTest, JoinOfNothingOneAndManyIsTheMostRestrictive) {
  EXPECT_EQ(ContentLabel{}, kTrustedPublic);
  EXPECT_EQ(JoinAll({}), kTrustedPublic);
  EXPECT_EQ(JoinAll({kUntrustedPrivate}), kUntrustedPrivate);
  EXPECT_EQ(JoinAll({kTrustedPublic, kUntrustedPublic, kTrustedPublic}).integrity,
            Integrity::kUntrusted);
  EXPECT_EQ(JoinAll({kTrustedPublic, kTrustedIdentity, kTrustedPrivate}).confidentiality,
            Confidentiality::kUserIdentity);
}

// --- TestLabelTrackingMiddleware, TestTieredLabelPropagation ------------------------------------

TEST(TrackerPortTest, ResultLabelIsPublished) {
  Fixture f;
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  EXPECT_TRUE(ctx.metadata.result_label.has_value());
}

TEST(TrackerPortTest, TrustedSourceGivesATrustedResult) {
  Fixture f("trusted_function", {{kSourceIntegrity, "trusted"}});
  LabelTrackingFunctionMiddleware tracker;
  EXPECT_EQ(f.Call({&tracker}).metadata.result_label->integrity, Integrity::kTrusted);
}

TEST(TrackerPortTest, UndeclaredSourceWithNoLabelsDefaultsToUntrusted) {
  Fixture f;
  LabelTrackingFunctionMiddleware tracker;
  EXPECT_EQ(f.Call({&tracker}).metadata.result_label->integrity, Integrity::kUntrusted);
}

TEST(TrackerPortTest, DeclaredSourceOverridesUntrustedArgumentLabels) {
  Fixture f("process_data", {{kSourceIntegrity, "trusted"}});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker}, {kUntrustedPublic});
  EXPECT_EQ(ctx.metadata.result_label->integrity, Integrity::kTrusted);
  EXPECT_EQ(ctx.metadata.argument_label, kUntrustedPublic);
}

TEST(TrackerPortTest, UntrustedArgumentLabelsWithoutDeclarationGiveAHiddenResult) {
  Fixture f("generic_processor");
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker}, {kUntrustedPublic});
  EXPECT_EQ(ctx.metadata.result_label->integrity, Integrity::kUntrusted);
  EXPECT_TRUE(ctx.result->items[0].variable_id.has_value());
}

TEST(TrackerPortTest, ArgumentConfidentialityReachesTheResult) {
  // A trusted transformer fed a private or identity-bound argument cannot declassify it.
  for (const ContentLabel& argument : {kUntrustedPrivate, kUntrustedIdentity}) {
    Fixture f("trusted_transformer", {{kSourceIntegrity, "trusted"}});
    LabelTrackingFunctionMiddleware tracker;
    InvocationContext ctx = f.Call({&tracker}, {argument});
    EXPECT_EQ(ctx.metadata.result_label,
              (ContentLabel{Integrity::kTrusted, argument.confidentiality}));
    EXPECT_EQ(tracker.context_label().confidentiality, argument.confidentiality);
  }
}

TEST(TrackerPortTest, ItemStampCannotDeclassifyAnArgumentNorRaiseIntegrity) {
  // Upstream (1.18) expects the trusted stamp to make the result trusted; FRAMEWORK.md D1 keeps
  // 1.19's rule, under which the untrusted declaration wins.
  Fixture f("embedded_label_transformer", {{kSourceIntegrity, "untrusted"}},
            {Labelled("transformed", kTrustedPublic)});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker}, {kUntrustedPrivate});
  EXPECT_EQ(ctx.metadata.result_label, kUntrustedPrivate);
  EXPECT_EQ(tracker.context_label().confidentiality, Confidentiality::kPrivate);
}

TEST(TrackerPortTest, NoArgumentLabelsPublishATrustedPublicArgumentLabel) {
  Fixture f("sink");
  LabelTrackingFunctionMiddleware tracker;
  EXPECT_EQ(f.Call({&tracker}).metadata.argument_label, kTrustedPublic);
}

// --- TestPolicyEnforcementMiddleware, TestPolicyEnforcementWithContextLabel ----------------------

TEST(PolicyPortTest, TrustedConversationRuns) {
  Fixture f("restricted_function");
  LabelTrackingFunctionMiddleware tracker;
  PolicyEnforcementFunctionMiddleware policy(true, {"allowed_function"});
  InvocationContext ctx = f.Call({&tracker, &policy});
  EXPECT_EQ(f.runs, 1);
  EXPECT_EQ(ctx.result->items[0].text, "mock result");
}

TEST(PolicyPortTest, UntrustedConversationIsBlocked) {
  Fixture f("restricted_function");
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kUntrustedPublic);
  PolicyEnforcementFunctionMiddleware policy(true, {"allowed_function"});
  InvocationContext ctx = f.Call({&tracker, &policy});
  EXPECT_EQ(f.runs, 0);
  ASSERT_TRUE(ctx.blocked.has_value());
  EXPECT_NE(ctx.blocked->result_error.find("Policy violation"), std::string::npos);
  EXPECT_NE(ctx.blocked->result_error.find("untrusted context"), std::string::npos);
}

TEST(PolicyPortTest, AllowedToolRunsInAnUntrustedConversation) {
  Fixture f("allowed_function");
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kUntrustedPublic);
  PolicyEnforcementFunctionMiddleware policy(true, {"allowed_function"});
  InvocationContext ctx = f.Call({&tracker, &policy});
  EXPECT_EQ(f.runs, 1);
  EXPECT_FALSE(ctx.blocked.has_value());
}

TEST(PolicyPortTest, AuditLogStartsEmptyAndRecordsAViolation) {
  Fixture f("restricted_function");
  LabelTrackingFunctionMiddleware tracker;
  PolicyEnforcementFunctionMiddleware policy(true);
  EXPECT_TRUE(policy.audit_log().empty());
  tracker.JoinIntoContext(kUntrustedPublic);
  f.Call({&tracker, &policy});
  ASSERT_EQ(policy.audit_log().size(), 1u);
  EXPECT_EQ(policy.audit_log()[0].type, kViolationUntrustedContext);
}

// --- TestMaxAllowedConfidentiality, TestCheckConfidentialityAllowed -----------------------------

TEST(PolicyPortTest, CapAllowsExactlyTheLevelsAtOrBelowIt) {
  const Confidentiality levels[] = {Confidentiality::kPublic, Confidentiality::kPrivate,
                                    Confidentiality::kUserIdentity};
  for (Confidentiality data : levels) {
    for (Confidentiality cap : levels) {
      Fixture f("send", {{kMaxAllowedConfidentiality, std::string(Name(cap))}});
      LabelTrackingFunctionMiddleware tracker;
      tracker.JoinIntoContext({Integrity::kTrusted, data});
      PolicyEnforcementFunctionMiddleware policy(true);
      InvocationContext ctx = f.Call({&tracker, &policy});
      EXPECT_EQ(ctx.blocked.has_value(), data > cap) << Name(data) << " to " << Name(cap);
    }
  }
}

TEST(PolicyPortTest, ConfidentialityBlockNamesTheExfiltration) {
  Fixture f("send_to_public", {{kMaxAllowedConfidentiality, "public"}});
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kTrustedPrivate);
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx = f.Call({&tracker, &policy});
  ASSERT_TRUE(ctx.blocked.has_value());
  EXPECT_NE(ctx.blocked->result_error.find("exfiltration"), std::string::npos);
}

TEST(PolicyPortTest, IntegrityAndConfidentialityViolationsTogether) {
  Fixture f("restricted_public_tool",
            {{kAcceptsUntrusted, "false"}, {kMaxAllowedConfidentiality, "public"}});
  LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(kUntrustedPrivate);
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx = f.Call({&tracker, &policy});
  EXPECT_EQ(f.runs, 0);
  ASSERT_TRUE(ctx.blocked.has_value());
  EXPECT_EQ(ctx.blocked->violations,
            (std::vector<std::string>{kViolationUntrustedContext,
                                      kViolationMaxAllowedConfidentiality}));
}

// --- TestVariableArgumentPolicy -----------------------------------------------------------------

TEST(PolicyPortTest, UntrustedArgumentsAreBlockedAndAudited) {
  Fixture f("sink", {{kMaxAllowedConfidentiality, "private"}, {kSourceIntegrity, "trusted"}});
  LabelTrackingFunctionMiddleware tracker;
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx = f.Call({&tracker, &policy}, {kUntrustedPublic});
  EXPECT_EQ(f.runs, 0);
  EXPECT_EQ(ctx.metadata.argument_label->integrity, Integrity::kUntrusted);
  ASSERT_FALSE(policy.audit_log().empty());
  EXPECT_EQ(policy.audit_log().back().type, kViolationUntrustedArguments);
}

TEST(PolicyPortTest, AcceptingToolForwardsUntrustedArgumentsWithoutTaint) {
  Fixture f("sink", {{kAcceptsUntrusted, "true"},
                     {kMaxAllowedConfidentiality, "private"},
                     {kSourceIntegrity, "trusted"}},
            {{"output", "sent", std::nullopt}});
  LabelTrackingFunctionMiddleware tracker;
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx = f.Call({&tracker, &policy}, {kUntrustedPublic});
  EXPECT_EQ(f.runs, 1);
  EXPECT_EQ(ctx.metadata.argument_label->integrity, Integrity::kUntrusted);
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kTrusted);
}

TEST(PolicyPortTest, PrivateArgumentIsBlockedFromAPublicSinkEvenWhenItAcceptsUntrusted) {
  Fixture f("sink", {{kAcceptsUntrusted, "true"},
                     {kMaxAllowedConfidentiality, "public"},
                     {kSourceIntegrity, "trusted"}});
  LabelTrackingFunctionMiddleware tracker;
  PolicyEnforcementFunctionMiddleware policy(true);
  InvocationContext ctx = f.Call({&tracker, &policy}, {kUntrustedPrivate});
  EXPECT_EQ(f.runs, 0);
  EXPECT_EQ(ctx.metadata.effective_invocation_label->confidentiality, Confidentiality::kPrivate);
  ASSERT_FALSE(policy.audit_log().empty());
  EXPECT_EQ(policy.audit_log().back().subtype, kViolationMaxAllowedConfidentiality);
}

// --- TestAutomaticHiding, TestPerItemEmbeddedLabels (store) -------------------------------------

TEST(HidingPortTest, UntrustedResultIsHiddenAndStored) {
  Fixture f("test_function", {}, {{"output", "sensitive data", std::nullopt}});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  ASSERT_EQ(ctx.result->items.size(), 1u);
  const Content& item = ctx.result->items[0];
  ASSERT_TRUE(item.variable_id.has_value());
  EXPECT_EQ(item.variable_id->rfind("var_", 0), 0u);
  EXPECT_NE(LabelTrackingFunctionMiddleware::ModelView(item).find("\"variable_reference\""),
            std::string::npos);
  EXPECT_EQ(LabelTrackingFunctionMiddleware::ModelView(item).find("sensitive data"),
            std::string::npos);
  const auto stored = tracker.FindVariable(*item.variable_id);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->text, "sensitive data");
  EXPECT_EQ(stored->label.integrity, Integrity::kUntrusted);
  EXPECT_FALSE(tracker.FindVariable("var_unknown").has_value());
}

TEST(HidingPortTest, TrustedResultIsNotHidden) {
  Fixture f("trusted_function", {{kSourceIntegrity, "trusted"}},
            {{"output", "trusted data", std::nullopt}});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  EXPECT_FALSE(ctx.result->items[0].variable_id.has_value());
  EXPECT_EQ(LabelTrackingFunctionMiddleware::ModelView(ctx.result->items[0]), "trusted data");
}

TEST(HidingPortTest, HidingOffShowsAnUntrustedResult) {
  Fixture f("test_function", {}, {Labelled("untrusted but visible", kUntrustedPublic)});
  LabelTrackingFunctionMiddleware tracker(kShowAll);
  InvocationContext ctx = f.Call({&tracker});
  EXPECT_FALSE(ctx.result->items[0].variable_id.has_value());
  EXPECT_EQ(LabelTrackingFunctionMiddleware::ModelView(ctx.result->items[0]),
            "untrusted but visible");
}

TEST(HidingPortTest, StoreRecordsTheProducingTool) {
  Fixture f("test_function");
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  ASSERT_TRUE(ctx.result->items[0].variable_id.has_value());
  EXPECT_EQ(tracker.FindVariable(*ctx.result->items[0].variable_id)->function, "test_function");
}

TEST(HidingPortTest, EveryHiddenResultAccumulatesInTheStore) {
  Fixture f("test_function");
  LabelTrackingFunctionMiddleware tracker;
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(*f.Call({&tracker}).result->items[0].variable_id);
  EXPECT_EQ(tracker.ListVariables(), ids);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 5u);
}

TEST(HidingPortTest, InspectVariableIsNeverHiddenAndTaints) {
  Fixture f(kInspectVariableTool, {}, {{"output", "raw untrusted payload", std::nullopt}});
  LabelTrackingFunctionMiddleware tracker;
  ASSERT_EQ(tracker.context_label().integrity, Integrity::kTrusted);
  InvocationContext ctx = f.Call({&tracker});
  EXPECT_FALSE(ctx.result->items[0].variable_id.has_value());
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kUntrusted);
}

// --- TestContextLabelTracking -------------------------------------------------------------------

TEST(ContextPortTest, StartsTrustedPublicAndResetsToIt) {
  LabelTrackingFunctionMiddleware tracker;
  EXPECT_EQ(tracker.context_label(), kTrustedPublic);
  tracker.JoinIntoContext(kUntrustedPublic);
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kUntrusted);
  tracker.ResetContextLabel();
  EXPECT_EQ(tracker.context_label(), kTrustedPublic);
}

TEST(ContextPortTest, VisibleUntrustedResultTaintsTheConversation) {
  Fixture f("test_function");
  LabelTrackingFunctionMiddleware tracker(kShowAll);
  f.Call({&tracker});
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kUntrusted);
}

TEST(ContextPortTest, HiddenResultLeavesTheConversationTrusted) {
  Fixture f("test_function");
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kTrusted);
  EXPECT_TRUE(ctx.result->items[0].variable_id.has_value());
}

TEST(ContextPortTest, ConversationAndResultLabelsArePublishedForThePolicy) {
  Fixture f("test_function");
  LabelTrackingFunctionMiddleware tracker(kShowAll);
  InvocationContext ctx = f.Call({&tracker});
  EXPECT_TRUE(ctx.metadata.result_label.has_value());
  EXPECT_EQ(ctx.metadata.context_label, kTrustedPublic);
}

TEST(ContextPortTest, TaintIsARatchetAcrossCalls) {
  Fixture trusted("trusted_function", {{kSourceIntegrity, "trusted"}});
  Fixture external("external_function");
  LabelTrackingFunctionMiddleware tracker(kShowAll);
  trusted.Call({&tracker});
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kTrusted);
  external.Call({&tracker});
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kUntrusted);
  trusted.Call({&tracker});
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kUntrusted);
}

// --- TestPerItemEmbeddedLabels ------------------------------------------------------------------

TEST(ItemLabelPortTest, MixedStampsUnderAnUntrustedFallbackAreAllHidden) {
  // Upstream (1.18) shows the two items stamped trusted; FRAMEWORK.md D1: a stamp cannot lift an
  // item above the undeclared tool's untrusted fallback, so all three are hidden here.
  Fixture f("fetch_items", {},
            {Labelled("1", kTrustedPublic), Labelled("2 [INJECTION]", kUntrustedPublic),
             Labelled("3", kTrustedPublic)});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  ASSERT_EQ(ctx.result->items.size(), 3u);
  for (const Content& item : ctx.result->items) EXPECT_TRUE(item.variable_id.has_value());
  EXPECT_EQ(tracker.context_label(), kTrustedPublic);
}

TEST(ItemLabelPortTest, TrustedStampsAreShownOnlyUnderATrustedFallback) {
  // The upstream test's tool declares nothing, so under D1 its items stay hidden; declared
  // trusted, the same items are shown, which is what the upstream test checks for.
  const std::vector<Content> items = {Labelled("safe data 1", kTrustedPublic),
                                      Labelled("safe data 2", kTrustedPublic)};
  for (bool declared : {false, true}) {
    std::map<std::string, std::string> properties;
    if (declared) properties[kSourceIntegrity] = "trusted";
    Fixture f("fetch_items", properties, items);
    LabelTrackingFunctionMiddleware tracker;
    InvocationContext ctx = f.Call({&tracker});
    for (const Content& item : ctx.result->items) {
      EXPECT_EQ(item.variable_id.has_value(), !declared) << item.text;
    }
  }
}

TEST(ItemLabelPortTest, AllUntrustedItemsAreHiddenEachWhole) {
  Fixture f("fetch_items", {},
            {Labelled("{\"emails\":[{\"id\":1},{\"id\":2}]}", kUntrustedPublic),
             Labelled("also unsafe", kUntrustedPublic)});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  ASSERT_EQ(ctx.result->items.size(), 2u);
  for (const Content& item : ctx.result->items) {
    ASSERT_TRUE(item.variable_id.has_value());
    EXPECT_EQ(tracker.FindVariable(*item.variable_id)->text, item.text);
  }
}

TEST(ItemLabelPortTest, HiddenItemsJoinOnlyConfidentiality) {
  for (const ContentLabel& hidden : {kUntrustedPrivate, kUntrustedIdentity}) {
    Fixture f("fetch_items", {{kSourceIntegrity, "trusted"}},
              {Labelled("trusted content", kTrustedPublic), Labelled("hidden", hidden)});
    LabelTrackingFunctionMiddleware tracker;
    InvocationContext ctx = f.Call({&tracker});
    EXPECT_FALSE(ctx.result->items[0].variable_id.has_value());
    EXPECT_TRUE(ctx.result->items[1].variable_id.has_value());
    EXPECT_EQ(tracker.context_label(), (ContentLabel{Integrity::kTrusted, hidden.confidentiality}));
  }
}

TEST(ItemLabelPortTest, UntrustedStampUnderATrustedDeclarationWins) {
  Fixture f("trusted_fetcher", {{kSourceIntegrity, "trusted"}},
            {Labelled("untrusted external data", kUntrustedIdentity)});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  EXPECT_EQ(ctx.metadata.result_label, kUntrustedIdentity);
  EXPECT_TRUE(ctx.result->items[0].variable_id.has_value());
  EXPECT_EQ(tracker.context_label(), kTrustedIdentity);
}

TEST(ItemLabelPortTest, UnlabelledItemsTakeTheFallback) {
  Fixture f("fetch_external", {},
            {{"a", "no label here", std::nullopt}, {"b", "also no label", std::nullopt}});
  LabelTrackingFunctionMiddleware tracker;
  InvocationContext ctx = f.Call({&tracker});
  for (const Content& item : ctx.result->items) {
    EXPECT_TRUE(item.variable_id.has_value());
    EXPECT_EQ(item.security_label, kUntrustedPublic);
  }
  EXPECT_EQ(ctx.metadata.result_label->integrity, Integrity::kUntrusted);
}

TEST(ItemLabelPortTest, ResultLabelJoinsEveryItem) {
  Fixture f("fetch_items", {},
            {Labelled("1", kTrustedPublic), Labelled("2", kUntrustedPrivate)});
  LabelTrackingFunctionMiddleware tracker;
  EXPECT_EQ(f.Call({&tracker}).metadata.result_label, kUntrustedPrivate);
}

}  // namespace
}  // namespace azure_pricing::labels
