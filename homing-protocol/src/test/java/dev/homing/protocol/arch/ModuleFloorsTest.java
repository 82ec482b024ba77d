package dev.homing.protocol.arch;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.homing.protocol.archfixture.ImportsHigherModules;
import dev.homing.protocol.archfixture.cycle.Ping;
import dev.homing.protocol.archfixture.cycle.pong.Pong;
import dev.homing.protocol.openai.RequestParser;
import dev.homing.protocol.openai.RoutingFields;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The floor "imports the main classes only" fails on a wrong import: one holding the fixtures, or lacking the class. */
class ModuleFloorsTest {

    @Test
    void passesOnTheMainClasses() {
        assertThatCode(importCheck(ModuleFloors.of(RequestParser.class))::execute).doesNotThrowAnyException();
    }

    @Test
    void failsWhenTheImportHoldsTheFixtures() {
        JavaClasses withTests = new ClassFileImporter().importPackages("dev.homing.protocol");
        assertThatThrownBy(importCheck(new ModuleFloors(RequestParser.class, withTests))::execute)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("fixtures among the main classes")
                .hasMessageContaining(Ping.class.getName());
    }

    @Test
    void failsWhenTheImportLacksTheKnownClass() {
        JavaClasses other = new ClassFileImporter().importClasses(RoutingFields.class);
        assertThatThrownBy(importCheck(new ModuleFloors(RequestParser.class, other))::execute)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("the import holds " + RequestParser.class.getName());
    }

    private static Executable importCheck(ModuleFloors floors) {
        return floors.tests(List.of(), ImportsHigherModules.class, Ping.class, Pong.class)
                .filter(t -> t.getDisplayName().startsWith("imports "))
                .map(DynamicTest::getExecutable)
                .findFirst().orElseThrow();
    }
}
