package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a user reads before running: the syntax of the options issue 11 added. */
class HelpTextTest {

    @Test
    void serveHelpShowsTheLabelledEndpointSyntaxAndTheFile() {
        CliRun help = CliRun.of("serve", "--help");
        assertThat(help.exit()).isZero();
        String text = help.out().replaceAll("\\s+", ""); // picocli wraps anywhere, even inside an example
        assertThat(text).contains("(--endpoints=NAME=HOST:PORT[;KEY=VALUE...][,...]|--endpoints-file=FILE|"
                        + "--pool-name=NAME|--endpoint-selector=SELECTOR)")
                .contains("--config,--config-file=FILE").contains("--admin-port,--metrics-port=<adminPort>")
                .contains("--grpc-port,--ext-proc-port=PORT").contains("--ha-enable-leader-election[=BOOL]")
                .contains("Labelsfollowtheirendpointafter';',inKubernetes'labelsyntax")
                .contains("'p=10.0.0.1:8000;llm-d.ai/role=prefill,d=10.0.0.2:8000;llm-d.ai/role=decode'");
    }

    @Test
    void upHelpShowsThePdSplit() {
        CliRun help = CliRun.of("up", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out().replaceAll("\\s+", "")).contains("--pd=P:D")
                .contains("Pprefillpods(llm-d.ai/role=prefill)andDdecodepods(llm-d.ai/role=decode)");
    }

    @Test
    void configDefaultPrintsThePdConfigOnRequest() {
        CliRun pd = CliRun.of("config", "default", "--pd");
        assertThat(pd.exit()).isZero();
        assertThat(pd.out()).contains("type: disagg-profile-handler").contains("prefill: prefix-based-pd-decider")
                .contains("pluginRef: prefill-filter").contains("pluginRef: decode-filter");
        // llm-d's file unchanged, so its deprecated apiVersion is warned about, on standard error: `> pd.yaml` stays clean
        assertThat(pd.out()).isEqualTo(dev.homing.core.config.BuiltInConfig.PD.text());
        assertThat(pd.err()).isEqualTo("warning: homing-pd.yaml:2: apiVersion inference.networking.x-k8s.io/v1alpha1 "
                + "is deprecated; use llm-d.ai/v1alpha1" + System.lineSeparator());
        CliRun plain = CliRun.of("config", "default");
        assertThat(plain.out()).doesNotContain("disagg-profile-handler");
        assertThat(plain.err()).isEmpty();
    }
}
