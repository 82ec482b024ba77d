package dev.homing.router.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.protocol.arch.ModuleFloors;
import dev.homing.router.RouterServer;
import dev.homing.router.archfixture.ImportsHigherModules;
import dev.homing.router.archfixture.cycle.Ping;
import dev.homing.router.archfixture.cycle.pong.Pong;
import dev.homing.router.explain.archfixture.Forwards;
import dev.homing.router.extproc.archfixture.RelaysLikeTheProxy;
import dev.homing.router.precise.PreciseRouting;
import dev.homing.router.precise.archfixture.NamesAPreciseProducer;
import dev.homing.router.proxy.archfixture.AsksThePicker;
import dev.homing.router.proxy.archfixture.RendersDecisions;
import dev.homing.router.proxy.archfixture.TalksToKubernetes;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * homing-router's floors: it uses only core and protocol, and has no package cycle. And the proxy and the explainer
 * know nothing of each other: the composition root hands the proxy how to explain a decision. And the router reaches
 * core's precise producers only through {@code core.precise.KvEventFeed}, never by their classes in
 * {@code core.plugins.prefix.precise} (issue 10: no type scans for them in the router).
 */
class RouterArchitectureTest {

    private static final String PROXY = "dev.homing.router.proxy..";
    private static final String EXPLAIN = "dev.homing.router.explain..";
    private static final String EXTPROC = "dev.homing.router.extproc..";
    private static final String PRECISE_PLUGINS = "dev.homing.core.plugins.prefix.precise..";

    static final ArchRule PROXY_WITHOUT_EXPLAIN = noClasses().that().resideInAPackage(PROXY)
            .should().dependOnClassesThat().resideInAPackage(EXPLAIN)
            .because("RouterServer gives the proxy its explainer (DecisionJson::compact)");
    static final ArchRule EXPLAIN_WITHOUT_PROXY = noClasses().that().resideInAPackage(EXPLAIN)
            .should().dependOnClassesThat().resideInAPackage(PROXY)
            .because("explaining a decision forwards nothing");
    static final ArchRule EXTPROC_WITHOUT_PROXY = noClasses().that().resideInAPackage(EXTPROC)
            .should().dependOnClassesThat().resideInAnyPackage(PROXY, EXPLAIN)
            .because("the two data planes share only what lies below both (router.http: reading a request, "
                    + "watching a response) and the director");
    static final ArchRule PROXY_WITHOUT_EXTPROC = noClasses().that().resideInAPackage(PROXY)
            .should().dependOnClassesThat().resideInAPackage(EXTPROC)
            .because("the HTTP proxy does not know the gateway's protocol");
    static final ArchRule PRECISE_THROUGH_THE_FEED = noClasses().that().resideInAPackage("dev.homing.router..")
            .should().dependOnClassesThat().resideInAPackage(PRECISE_PLUGINS)
            .because("the router reaches precise producers only through core.precise.KvEventFeed");

    static final ArchRule KUBERNETES_CONFINED = noClasses().that().resideInAPackage("dev.homing.router..")
            .and().resideOutsideOfPackages("dev.homing.router.discovery..", "dev.homing.router.election..")
            .should().dependOnClassesThat().resideInAPackage("io.fabric8..")
            .because("the Kubernetes API is discovery's and election's: the rest sees endpoints and readiness");

    private static final ModuleFloors FLOORS = ModuleFloors.of(RouterServer.class);
    private static final JavaClasses MAIN = FLOORS.main();

    @TestFactory
    Stream<DynamicTest> floors() {
        return FLOORS.tests(List.of("core", "protocol"), ImportsHigherModules.class, Ping.class, Pong.class);
    }

    @Test
    void proxyImportsNothingOfExplain() {
        PROXY_WITHOUT_EXPLAIN.check(MAIN);
    }

    @Test
    void explainImportsNothingOfProxy() {
        EXPLAIN_WITHOUT_PROXY.check(MAIN);
    }

    @Test
    void proxyAndExplainRulesCatchAnImportEitherWay() {
        assertThat(violationsOf(PROXY_WITHOUT_EXPLAIN, RendersDecisions.class))
                .contains(RendersDecisions.class.getName(), "dev.homing.router.explain.DecisionJson");
        assertThat(violationsOf(EXPLAIN_WITHOUT_PROXY, Forwards.class))
                .contains(Forwards.class.getName(), "dev.homing.router.proxy.ApiPort");
    }

    @Test
    void theTwoDataPlanesImportNeitherTheOther() {
        EXTPROC_WITHOUT_PROXY.check(MAIN);
        PROXY_WITHOUT_EXTPROC.check(MAIN);
    }

    @Test
    void theDataPlaneRulesCatchAnImportEitherWay() {
        assertThat(violationsOf(EXTPROC_WITHOUT_PROXY, RelaysLikeTheProxy.class))
                .contains(RelaysLikeTheProxy.class.getName(), "dev.homing.router.proxy.ApiPort");
        assertThat(violationsOf(PROXY_WITHOUT_EXTPROC, AsksThePicker.class))
                .contains(AsksThePicker.class.getName(), "dev.homing.router.extproc.EndpointPicker");
    }

    @Test
    void reachesPreciseProducersOnlyThroughTheFeed() {
        PRECISE_THROUGH_THE_FEED.check(MAIN);
    }

    /** The rule passes because the router uses the feed, not because it never meets a precise producer. */
    @Test
    void theRouterUsesTheFeed() {
        assertThat(MAIN.get(PreciseRouting.class).getDirectDependenciesFromSelf())
                .anyMatch(d -> d.getTargetClass().isEquivalentTo(KvEventFeed.class));
    }

    @Test
    void thePreciseRuleCatchesAProducerNamedByTheRouter() {
        assertThat(violationsOf(PRECISE_THROUGH_THE_FEED, NamesAPreciseProducer.class))
                .contains(NamesAPreciseProducer.class.getName(),
                        "dev.homing.core.plugins.prefix.precise.PrecisePrefixCacheProducer");
    }

    @Test
    void onlyDiscoveryAndElectionSpeakToKubernetes() {
        KUBERNETES_CONFINED.check(MAIN);
        // and they do: the rule is not green for want of a fabric8 import
        assertThat(MAIN.get(dev.homing.router.discovery.KubernetesApi.class).getDirectDependenciesFromSelf())
                .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("io.fabric8"));
    }

    @Test
    void theKubernetesRuleCatchesAFabric8ImportElsewhere() {
        assertThat(violationsOf(KUBERNETES_CONFINED, TalksToKubernetes.class))
                .contains(TalksToKubernetes.class.getName(), "io.fabric8.kubernetes.client.KubernetesClient");
    }
}
