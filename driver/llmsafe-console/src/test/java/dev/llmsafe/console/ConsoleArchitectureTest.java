package dev.llmsafe.console;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * What the console may use, as its package-info.java says: the deployment and what it builds, the plan
 * and value models to show plans, the policy's console settings, the tools for reads; never the dry run,
 * the statement analysis or a pool of its own (every engine object comes from the Deployment).
 */
class ConsoleArchitectureTest {

    @Test
    void theConsoleUsesOnlyWhatItsPackageInfoNames() {
        JavaClasses console = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.llmsafe.console");
        classes().that().resideInAPackage("dev.llmsafe.console..").should().onlyDependOnClassesThat().resideInAnyPackage(
                "java..", "javax..", "com.sun.net.httpserver..", "org.slf4j..", "com.fasterxml.jackson..",
                "org.springframework.security.crypto..", "dev.llmsafe", "dev.llmsafe.console..", "dev.llmsafe.assembly..",
                "dev.llmsafe.apply..", "dev.llmsafe.store..", "dev.llmsafe.plan..", "dev.llmsafe.value..",
                "dev.llmsafe.policy..", "dev.llmsafe.tools..", "dev.llmsafe.jdbc..", "dev.llmsafe.dialect..")
                .because("package-info.java of dev.llmsafe.console names what it uses").check(console);
    }
}
