package dev.homing.router.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.homing.protocol.arch.ModuleFloors;
import dev.homing.router.RouterServer;
import dev.homing.router.archfixture.ImportsHigherModules;
import dev.homing.router.archfixture.cycle.Ping;
import dev.homing.router.archfixture.cycle.pong.Pong;
import dev.homing.router.explain.archfixture.Forwards;
import dev.homing.router.proxy.archfixture.RendersDecisions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * homing-router's floors: it uses only core and protocol, and has no package cycle. And the proxy and the explainer
 * know nothing of each other: the composition root hands the proxy how to explain a decision.
 */
class RouterArchitectureTest {

    private static final String PROXY = "dev.homing.router.proxy..";
    private static final String EXPLAIN = "dev.homing.router.explain..";

    static final ArchRule PROXY_WITHOUT_EXPLAIN = noClasses().that().resideInAPackage(PROXY)
            .should().dependOnClassesThat().resideInAPackage(EXPLAIN)
            .because("RouterServer gives the proxy its explainer (DecisionJson::compact)");
    static final ArchRule EXPLAIN_WITHOUT_PROXY = noClasses().that().resideInAPackage(EXPLAIN)
            .should().dependOnClassesThat().resideInAPackage(PROXY)
            .because("explaining a decision forwards nothing");

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
                .contains(Forwards.class.getName(), "dev.homing.router.proxy.Upstream");
    }
}
