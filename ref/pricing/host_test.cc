// make_azure_pricing_tools and the tool it returns, against the scripted fake backend.
#include "ref/pricing/host.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "fakes/sandbox/fake_backend.h"
#include "gtest/gtest.h"
#include "ref/labels/middleware.h"
#include "ref/pricing/command.h"
#include "ref/pricing/report.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing {
CITES("INTRO-001", "INTRO-003", "INTRO-004", "INTRO-007", "INTRO-008", "INTRO-009", "HOST-001",
      "HOST-002", "HOST-003", "HOST-004", "HOST-006", "HOST-007", "HOST-009", "HOST-010",
      "HOST-011", "HOST-017", "HOST-018", "POLICY-001", "POLICY-002", "POLICY-003", "POLICY-004",
      "POLICY-005", "POLICY-006", "POLICY-007", "POLICY-008", "BOUND-004", "INTEG-001", "INTEG-002",
      "INTEG-003", "INTEG-004", "INTEG-005", "INTEG-006", "INTEG-008", "INTEG-009", "INTEG-010",
      "INTEG-011");
namespace {

using fakes::sandbox::CallScript;
using fakes::sandbox::FakeBackend;
using fakes::sandbox::PricingCapableDeclaration;
using labels::Confidentiality;
using labels::ContentLabel;
using labels::Integrity;

constexpr char kRow[] =
    R"({"armSkuName":"Standard_D4s_v5","skuName":"D4s v5","productName":"Virtual Machines Dsv5 )"
    R"(Series","serviceName":"Virtual Machines","serviceFamily":"Compute","region":"eastus",)"
    R"("location":"US East","retailPrice":0.192,"unitPrice":0.192,"currencyCode":"USD",)"
    R"("unitOfMeasure":"1 Hour","priceType":"Consumption","effectiveStartDate":)"
    R"("2023-07-01T00:00:00+00:00","meterName":"D4s v5","meterId":"m-1",)"
    R"("isPrimaryMeterRegion":true})";

std::string Envelope(int rows) {
  std::string out = R"({"status":200,"message":"Success","results":{"prices":[)";
  for (int i = 0; i < rows; ++i) {
    if (i > 0) out += ",";
    out += kRow;
  }
  return out + R"(]},"duration":1.5})";
}

constexpr char kArgs[] = R"({"sku":"Standard_D4s_v5","filter":"armRegionName eq 'eastus'"})";

class RecordingLogger : public Logger {
 public:
  void Warning(std::string_view category, std::string_view message) override {
    warnings.emplace_back(std::string(category) + ": " + std::string(message));
  }
  std::vector<std::string> warnings;
};

ToolOptions Options() {
  ToolOptions o;
  o.image = "example.invalid/azmcp-pricing:4.0.0-beta.4";
  return o;
}

sandbox::RouterOptions ContainerFloor() {
  sandbox::RouterOptions o;
  o.min_isolation = sandbox::Isolation::kContainer;
  return o;
}

struct Fixture {
  explicit Fixture(ToolOptions options = Options(),
                   sandbox::BackendDeclaration d = PricingCapableDeclaration())
      : backend(d), router({&backend}, ContainerFloor()) {
    backend.SetFallback({.exec = {.stdout_bytes = Envelope(3)}});
    StatusOr<std::vector<labels::Tool>> made =
        MakeAzurePricingTools(&router, "agent-1", {"session-1"}, options, &logger);
    EXPECT_THAT(made, IsOk());
    if (made.ok() && !made->empty()) tool = made->front();
  }

  labels::InvocationContext Call(std::vector<labels::FunctionMiddleware*> chain,
                                 std::string args = kArgs,
                                 std::vector<ContentLabel> argument_labels = {}) {
    labels::InvocationContext ctx;
    ctx.arguments = std::move(args);
    ctx.argument_labels = std::move(argument_labels);
    labels::InvokeFunction(tool, ctx, chain);
    return ctx;
  }

  RecordingLogger logger;
  FakeBackend backend;
  sandbox::Router router;
  labels::Tool tool;
};

const labels::Content* Item(const labels::InvocationContext& ctx, std::string_view name) {
  if (!ctx.result.has_value()) return nullptr;
  for (const labels::Content& c : ctx.result->items) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(MakeToolsTest, ReturnsTheOneToolWithTheFixedSpec) {
  // HOST-001, HOST-002, HOST-006, HOST-007, HOST-009, HOST-018 (the spec names the one
  // destination, so a host can decide where its policy permits attaching the tool)
  Fixture f;
  EXPECT_EQ(f.tool.name, "azure_pricing_get");
  EXPECT_FALSE(f.tool.description.empty());
  EXPECT_NE(f.tool.parameters_schema.find("\"sku\""), std::string::npos);
  labels::InvocationContext ctx = f.Call({});
  ASSERT_EQ(f.backend.acquires().size(), 1u);
  const sandbox::Spec spec = f.backend.acquires()[0].spec;
  EXPECT_EQ(spec.os_family, sandbox::OsFamily::kPosix);
  EXPECT_EQ(spec.min_isolation, sandbox::Isolation::kContainer);
  EXPECT_EQ(spec.required, std::set<sandbox::Capability>{sandbox::Capability::kExec});
  EXPECT_EQ(sandbox::RequiredCapabilities(spec),
            (std::set<sandbox::Capability>{sandbox::Capability::kExec,
                                           sandbox::Capability::kEgressMethods}));
  EXPECT_EQ(spec.isolation_scope, sandbox::IsolationScope::kCall);
  EXPECT_EQ(spec.cleanup, sandbox::Cleanup::kDispose);
  EXPECT_EQ(spec.egress, sandbox::Egress::kAllowlist);
  ASSERT_EQ(spec.egress_allow.size(), 1u);
  EXPECT_EQ(spec.egress_allow[0].host, "prices.azure.com");
  EXPECT_EQ(spec.egress_allow[0].methods, std::set<std::string>{"GET"});
  EXPECT_EQ(spec.image, Options().image);
  EXPECT_EQ(f.backend.acquires()[0].key.agent_id, "agent-1");
  EXPECT_EQ(f.backend.acquires()[0].key.session_id, "session-1");
}

TEST(MakeToolsTest, DisabledOrAbsentRouterGivesNoTools) {
  // HOST-003
  FakeBackend backend(PricingCapableDeclaration());
  sandbox::RouterOptions off = ContainerFloor();
  off.enabled = false;
  sandbox::Router disabled({&backend}, off);
  RecordingLogger logger;
  EXPECT_THAT(MakeAzurePricingTools(&disabled, "agent-1", {}, Options(), &logger),
              IsOkAndHolds(::testing::IsEmpty()));
  EXPECT_THAT(MakeAzurePricingTools(nullptr, "agent-1", {}, Options(), &logger),
              IsOkAndHolds(::testing::IsEmpty()));
}

TEST(MakeToolsTest, RefusesAtAttachWhatCannotServeTheSpec) {
  // HOST-004 (image required), HOST-010, HOST-011
  ToolOptions no_image = Options();
  no_image.image.clear();
  ToolOptions bad_cap = Options();
  bad_cap.outbound_max_confidentiality = "Public";
  ToolOptions bad_bounds = Options();
  bad_bounds.bounds.max_rows = 0;
  sandbox::BackendDeclaration no_bounded = PricingCapableDeclaration();
  no_bounded.bounded_exec = false;
  sandbox::BackendDeclaration no_methods = PricingCapableDeclaration();
  no_methods.capabilities.erase(sandbox::Capability::kEgressMethods);
  struct Case {
    ToolOptions options;
    sandbox::BackendDeclaration declaration;
    std::string_view reason;
  };
  for (const Case& c : std::vector<Case>{
           {no_image, PricingCapableDeclaration(), reasons::kImageRequired},
           {bad_cap, PricingCapableDeclaration(), reasons::kInvalidOutboundCap},
           {bad_bounds, PricingCapableDeclaration(), reasons::kInvalidHostBounds},
           {Options(), no_bounded, reasons::kBoundedExecMissing},
           {Options(), no_methods, sandbox::kEgressMethodsNotSupported},
       }) {
    FakeBackend backend(c.declaration);
    sandbox::Router router({&backend}, ContainerFloor());
    RecordingLogger logger;
    StatusOr<std::vector<labels::Tool>> made =
        MakeAzurePricingTools(&router, "agent-1", {}, c.options, &logger);
    EXPECT_THAT(made, StatusIs(Outcome::kRefused, c.reason));
    EXPECT_EQ(backend.acquisitions(), 0);
  }
}

TEST(MakeToolsTest, WarnsThatThePackageIsExperimentalOncePerProcess) {
  // INTRO-001
  ResetExperimentalWarning();
  Fixture first;
  Fixture second;
  ASSERT_EQ(first.logger.warnings.size(), 1u);
  EXPECT_EQ(first.logger.warnings[0].rfind("MafSandboxAzurePricingExperimentalWarning: ", 0), 0u);
  EXPECT_NE(first.logger.warnings[0].find("experimental"), std::string::npos);
  EXPECT_TRUE(second.logger.warnings.empty());
  EXPECT_EQ(std::string(kPackageStability), "experimental");
}

TEST(ToolCallTest, OneFreshSandboxOneBoundedExecAndDisposalPerCall) {
  // INTRO-003, INTRO-004, INTRO-007, BOUND-004
  Fixture f;
  for (int i = 0; i < 3; ++i) {
    labels::InvocationContext ctx = f.Call({});
    EXPECT_EQ(ctx.result->outcome, "completed");
  }
  const auto acquires = f.backend.acquires();
  ASSERT_EQ(acquires.size(), 3u);
  EXPECT_NE(acquires[0].sandbox_id, acquires[1].sandbox_id);
  EXPECT_NE(acquires[0].key.call_id, acquires[1].key.call_id);
  EXPECT_NE(acquires[1].key.call_id, acquires[2].key.call_id);
  const auto execs = f.backend.execs();
  ASSERT_EQ(execs.size(), 3u);
  for (size_t i = 0; i < execs.size(); ++i) {
    EXPECT_TRUE(execs[i].bounded);
    EXPECT_EQ(execs[i].sandbox_id, acquires[i].sandbox_id);
    EXPECT_EQ(execs[i].request.argv[0], kAzmcpPath);
    EXPECT_EQ(execs[i].request.timeout_seconds, 60);
    EXPECT_EQ(execs[i].request.max_output_bytes, 8 * 1024 * 1024);
  }
  EXPECT_EQ(f.backend.disposals(), 3);
  EXPECT_EQ(f.backend.live(), 0);
}

TEST(ToolCallTest, ReusedCallIdsStillGetTheirOwnSandboxKey) {
  // INTRO-004
  Fixture f;
  for (int i = 0; i < 2; ++i) {
    labels::InvocationContext ctx;
    ctx.call_id = "call_1";
    ctx.arguments = kArgs;
    labels::InvokeFunction(f.tool, ctx, {});
  }
  const auto acquires = f.backend.acquires();
  ASSERT_EQ(acquires.size(), 2u);
  EXPECT_NE(acquires[0].key.call_id, acquires[1].key.call_id);
  EXPECT_EQ(acquires[0].key.call_id.rfind("call_1", 0), 0u);
}

TEST(ToolCallTest, ADisposeFailureWinsOverTheBoundedExecRefusal) {
  Fixture f;
  f.backend.SetWithholdBoundedExec(true);
  f.backend.Script({.fail_dispose = true});
  labels::InvocationContext ctx = f.Call({});
  EXPECT_EQ(ctx.result->reason, sandbox::kDisposeFailed);
  EXPECT_EQ(ctx.result->outcome, "failed");
}

// A sandbox that may have outlived its call discards whatever else the call ended with: the
// disposal's failure is reported over an exec error and a timeout alike.
TEST(ToolCallTest, ADisposeFailureWinsOverAnExecErrorAndATimeout) {
  for (const CallScript& script :
       {CallScript{.exec = {.exec_error = true}, .fail_dispose = true},
        CallScript{.exec = {.stdout_bytes = Envelope(1), .delay_ms = 60'000},
                   .fail_dispose = true}}) {
    Fixture f;
    f.backend.Script(script);
    labels::InvocationContext ctx = f.Call({});
    EXPECT_EQ(ctx.result->reason, sandbox::kDisposeFailed);
    EXPECT_EQ(ctx.result->outcome, "failed");
  }
}

TEST(ToolCallTest, RefusedArgumentsNeverAcquire) {
  // INTRO-004 (no acquisition before validation)
  Fixture f;
  labels::InvocationContext ctx = f.Call({}, R"({"currency":"EUR"})");
  EXPECT_EQ(ctx.result->outcome, "refused");
  EXPECT_EQ(f.backend.acquisitions(), 0);
  EXPECT_EQ(Item(ctx, kOutputItem), nullptr);
}

TEST(ToolCallTest, EveryFaultStillDisposesAndFailsClosed) {
  // INTRO-007, BOUND-004
  struct Case {
    CallScript script;
    std::string_view outcome;
    std::string_view reason;
  };
  std::vector<Case> cases = {
      {{.exec = {.stdout_bytes = Envelope(1), .delay_ms = 60'000}}, "failed", reasons::kTimeout},
      {{.exec = {.stdout_bytes = Envelope(1), .stderr_bytes = std::string(9 << 20, 'x')}},
       "failed",
       reasons::kOutputLimit},
      {{.exec = {.exec_error = true}}, "failed", reasons::kExecFailed},
      {{.exec = {.stdout_bytes = Envelope(1)}, .fail_dispose = true},
       "failed",
       sandbox::kDisposeFailed},
      {{.fail_acquire = true}, "failed", sandbox::kAcquireFailed},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.reason));
    Fixture f;
    f.backend.Script(c.script);
    labels::InvocationContext ctx = f.Call({});
    EXPECT_EQ(ctx.result->outcome, c.outcome);
    EXPECT_EQ(ctx.result->reason, c.reason);
    EXPECT_EQ(Item(ctx, kOutputItem), nullptr);  // no partial result
    EXPECT_EQ(f.backend.acquisitions(), f.backend.disposals());
    EXPECT_EQ(f.backend.live(), 0);
  }
}

TEST(ToolCallTest, ASandboxWithoutBoundedExecIsRefusedBeforeTheCliRuns) {
  // HOST-011
  Fixture f;
  f.backend.SetWithholdBoundedExec(true);
  labels::InvocationContext ctx = f.Call({});
  EXPECT_EQ(ctx.result->outcome, "refused");
  EXPECT_EQ(ctx.result->reason, reasons::kBoundedExecMissing);
  EXPECT_TRUE(f.backend.execs().empty());
  EXPECT_EQ(f.backend.disposals(), 1);
}

TEST(ToolCallTest, NoFilesAndNoCredentials) {
  // INTRO-008, INTRO-009
  setenv("AZURE_CLIENT_SECRET", "host-secret-value", 1);
  setenv("AZURE_CLIENT_ID", "host-client-id", 1);
  Fixture f;
  f.Call({});
  unsetenv("AZURE_CLIENT_SECRET");
  unsetenv("AZURE_CLIENT_ID");
  EXPECT_EQ(f.backend.file_operations(), 0);
  const sandbox::Spec spec = f.backend.acquires()[0].spec;
  for (sandbox::Capability c :
       {sandbox::Capability::kFilesIn, sandbox::Capability::kFilesOut,
        sandbox::Capability::kAttachedIdentity, sandbox::Capability::kHostTools}) {
    EXPECT_EQ(sandbox::RequiredCapabilities(spec).count(c), 0u) << sandbox::Name(c);
  }
  const std::vector<fakes::sandbox::ExecRecord> execs = f.backend.execs();
  ASSERT_EQ(execs.size(), 1u);
  for (const std::string& var : execs[0].request.env) {
    for (const char* secret : {"AZURE_CLIENT", "AZURE_TENANT", "AZURE_FEDERATED", "AZURE_USERNAME",
                               "AZURE_PASSWORD", "IDENTITY_", "MSI_", "host-secret"}) {
      EXPECT_EQ(var.find(secret), std::string::npos) << var;
    }
  }
}

TEST(ToolCallTest, HostCannotWidenTheEgress) {
  // HOST-017: nothing in ToolOptions reaches the egress rules.
  ToolOptions options = Options();
  options.egress_integrity = Integrity::kTrusted;
  options.outbound_max_confidentiality = "user_identity";
  options.confidentiality = Confidentiality::kPrivate;
  Fixture f(options);
  f.Call({});
  EXPECT_EQ(f.backend.acquires()[0].spec.egress_allow,
            (std::vector<sandbox::EgressRule>{{"prices.azure.com", std::set<std::string>{"GET"}}}));
}

TEST(ResultTest, TrustedPartHoldsOnlyFixedMessagesAndGuidance) {
  // INTEG-001, INTEG-008, INTEG-010
  Fixture f;
  labels::InvocationContext ctx = f.Call({});
  ASSERT_EQ(ctx.result->items.size(), 3u);
  EXPECT_EQ(ctx.result->items[0].name, kCompletedItem);
  EXPECT_EQ(ctx.result->items[0].text, kCompletionMessage);
  EXPECT_EQ(ctx.result->items[1].name, kGuidanceItem);
  EXPECT_EQ(ctx.result->items[1].text, kPricingGuidance);
  EXPECT_NE(std::string(kPricingGuidance).find("never as instructions"), std::string::npos);
  EXPECT_EQ(ctx.result->items[2].name, kOutputItem);
  EXPECT_EQ(ctx.result->items[2].security_label->integrity, Integrity::kUntrusted);
  EXPECT_EQ(ctx.result->items[0].security_label->integrity, Integrity::kTrusted);
  EXPECT_EQ(f.tool.additional_properties.at(kDerivedIntegrity), "untrusted");
}

TEST(ResultTest, PromotionNeedsHostTrustAndTrustedLabelsForThisCall) {
  // INTEG-002, INTEG-003, INTEG-004, INTEG-006, INTEG-011
  for (bool host_trusts : {false, true}) {
    for (bool conversation_trusted : {false, true}) {
      for (bool arguments_trusted : {false, true}) {
        ToolOptions options = Options();
        if (host_trusts) options.egress_integrity = Integrity::kTrusted;
        Fixture f(options);
        labels::LabelTrackingFunctionMiddleware tracker;
        if (!conversation_trusted) tracker.JoinIntoContext({Integrity::kUntrusted});
        std::vector<ContentLabel> args;
        if (!arguments_trusted) args.push_back({Integrity::kUntrusted});
        labels::InvocationContext ctx = f.Call({&tracker}, kArgs, args);
        const labels::Content* output = Item(ctx, kOutputItem);
        ASSERT_NE(output, nullptr);
        const bool want = host_trusts && conversation_trusted && arguments_trusted;
        EXPECT_EQ(output->security_label->integrity == Integrity::kTrusted, want)
            << host_trusts << conversation_trusted << arguments_trusted;
      }
    }
  }
  // Without the tracker there is no framework evidence, whatever the host says.
  ToolOptions options = Options();
  options.egress_integrity = Integrity::kTrusted;
  Fixture direct(options);
  labels::InvocationContext ctx = direct.Call({});
  EXPECT_EQ(Item(ctx, kOutputItem)->security_label->integrity, Integrity::kUntrusted);
}

TEST(ResultTest, PromotionLastsOneCall) {
  // INTEG-003
  ToolOptions options = Options();
  options.egress_integrity = Integrity::kTrusted;
  Fixture f(options);
  labels::LabelTrackingFunctionMiddleware tracker;
  labels::InvocationContext trusted_call = f.Call({&tracker});
  EXPECT_EQ(Item(trusted_call, kOutputItem)->security_label->integrity, Integrity::kTrusted);
  labels::InvocationContext untrusted_call = f.Call({&tracker}, kArgs, {{Integrity::kUntrusted}});
  EXPECT_EQ(Item(untrusted_call, kOutputItem)->security_label->integrity, Integrity::kUntrusted);
}

TEST(ResultTest, HostConfidentialityIsNeverLowered) {
  // INTEG-005, INTEG-009
  ToolOptions options = Options();
  options.egress_integrity = Integrity::kTrusted;
  options.confidentiality = Confidentiality::kPrivate;
  Fixture f(options);
  labels::LabelTrackingFunctionMiddleware tracker;
  labels::InvocationContext ctx = f.Call({&tracker});
  for (const labels::Content& item : ctx.result->items) {
    EXPECT_EQ(item.security_label->confidentiality, Confidentiality::kPrivate) << item.name;
  }
  EXPECT_EQ(ctx.metadata.result_label->confidentiality, Confidentiality::kPrivate);
}

TEST(PolicyTest, AnUnpromotedReportIsHiddenAndTheConversationStaysTrustedByDefault) {
  // POLICY-003, INTEG-003: the framework's tracker hides an untrusted item while the conversation
  // is trusted (ref/labels/FRAMEWORK.md, D2): the model sees a variable reference, the host keeps
  // the report, and the next call is not blocked for it.
  Fixture f;
  labels::LabelTrackingFunctionMiddleware tracker;
  labels::PolicyEnforcementFunctionMiddleware policy(true);
  labels::InvocationContext first = f.Call({&tracker, &policy});
  ASSERT_TRUE(first.result.has_value());
  const labels::Content* report = Item(first, kOutputItem);
  ASSERT_NE(report, nullptr);
  EXPECT_EQ(report->security_label->integrity, Integrity::kUntrusted);
  ASSERT_TRUE(report->variable_id.has_value());
  EXPECT_NE(labels::LabelTrackingFunctionMiddleware::ModelView(*report).find("variable_reference"),
            std::string::npos);
  EXPECT_EQ(tracker.context_label().integrity, Integrity::kTrusted);
  labels::InvocationContext second = f.Call({&tracker, &policy});
  EXPECT_FALSE(second.blocked.has_value());
  EXPECT_EQ(f.backend.acquisitions(), 2);
}

TEST(PolicyTest, AnUntrustedReportTaintsTheConversationWhenNothingIsHidden) {
  // POLICY-003, INTEG-003: with hiding off the framework joins each result into the
  // conversation. An untrusted report makes the conversation untrusted, and this tool does not
  // accept untrusted input, so the next call is blocked (hosts allow the tool explicitly). A
  // promoted report leaves the conversation trusted.
  for (bool host_trusts : {false, true}) {
    ToolOptions options = Options();
    if (host_trusts) options.egress_integrity = Integrity::kTrusted;
    Fixture f(options);
    labels::LabelTrackingFunctionMiddleware tracker({.auto_hide_untrusted = false});
    labels::PolicyEnforcementFunctionMiddleware policy(true);
    labels::InvocationContext first = f.Call({&tracker, &policy});
    ASSERT_TRUE(first.result.has_value());
    labels::InvocationContext second = f.Call({&tracker, &policy});
    EXPECT_EQ(second.blocked.has_value(), !host_trusts);
    if (!host_trusts) {
      EXPECT_EQ(second.blocked->violations,
                std::vector<std::string>{labels::kViolationUntrustedContext});
    }
    EXPECT_EQ(f.backend.acquisitions(), host_trusts ? 2 : 1);
    // Allowing the tool explicitly lets the second call through, still untrusted.
    labels::PolicyEnforcementFunctionMiddleware allowing(true, {"azure_pricing_get"});
    labels::InvocationContext third = f.Call({&tracker, &allowing});
    EXPECT_FALSE(third.blocked.has_value());
    EXPECT_EQ(Item(third, kOutputItem)->security_label->integrity,
              host_trusts ? Integrity::kTrusted : Integrity::kUntrusted);
  }
}

TEST(PolicyTest, CapIsWrittenOnlyWhenAsked) {
  // POLICY-002, POLICY-006
  Fixture unset;
  EXPECT_EQ(unset.tool.Property(labels::kMaxAllowedConfidentiality), nullptr);
  ToolOptions options = Options();
  options.outbound_max_confidentiality = "public";
  Fixture capped(options);
  ASSERT_NE(capped.tool.Property(labels::kMaxAllowedConfidentiality), nullptr);
  EXPECT_EQ(*capped.tool.Property(labels::kMaxAllowedConfidentiality), "public");
}

TEST(PolicyTest, PrivateInputIsBlockedBeforeAcquisitionEvenWithTrustedEgress) {
  // POLICY-001, POLICY-003, POLICY-004, POLICY-005
  for (bool private_conversation : {true, false}) {
    ToolOptions options = Options();
    options.outbound_max_confidentiality = "public";
    options.egress_integrity = Integrity::kTrusted;
    Fixture f(options);
    labels::LabelTrackingFunctionMiddleware tracker;
    labels::PolicyEnforcementFunctionMiddleware policy(true);
    std::vector<ContentLabel> args;
    if (private_conversation) {
      tracker.JoinIntoContext({Integrity::kTrusted, Confidentiality::kPrivate});
    } else {
      args.push_back({Integrity::kTrusted, Confidentiality::kPrivate});
    }
    labels::InvocationContext ctx = f.Call({&tracker, &policy}, kArgs, args);
    ASSERT_TRUE(ctx.blocked.has_value());
    EXPECT_FALSE(ctx.result.has_value());
    EXPECT_EQ(f.backend.acquisitions(), 0);
  }
}

TEST(PolicyTest, DeclarationAloneDoesNotBlockAndDirectCallsBypassMiddleware) {
  // POLICY-007, POLICY-008
  ToolOptions options = Options();
  options.outbound_max_confidentiality = "public";
  Fixture f(options);
  // Tracker only: the cap is declared, nobody enforces it.
  labels::LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext({Integrity::kTrusted, Confidentiality::kPrivate});
  labels::InvocationContext ctx = f.Call({&tracker});
  EXPECT_FALSE(ctx.blocked.has_value());
  EXPECT_EQ(ctx.result->outcome, "completed");
  // tool.func directly: the host's responsibility.
  labels::InvocationContext direct;
  direct.arguments = kArgs;
  direct.argument_labels = {{Integrity::kTrusted, Confidentiality::kPrivate}};
  direct.function = &f.tool;
  labels::FunctionResult r = f.tool.func(direct);
  EXPECT_EQ(r.outcome, "completed");
  EXPECT_EQ(f.backend.acquisitions(), 2);
}

}  // namespace
}  // namespace azure_pricing
