package dev.llmsafe;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rooms of the driver and who may use whom (issue 15): no package cycle, each package depends only on
 * the packages its package-info.java names, a vendor driver's own API is used in dialect only, and the
 * engine's pools are built in one place. A change
 * that breaks a rule either moves the code to the room it belongs in or changes this table, deliberately,
 * with the package-info.java it contradicts.
 */
class ArchitectureTest {

    private static final String[] LIBRARIES = {"java..", "javax..", "org.slf4j..", "com.fasterxml.jackson..",
        "net.sf.jsqlparser..", "com.zaxxer.hikari.."};

    /** The vendor drivers' own API: a dialect difference, so in dialect only. */
    private static final String[] VENDORS = {"org.postgresql..", "org.sqlite..", "com.mysql.."};

    /** Package (under dev.llmsafe) to the packages of ours it may use; the root package is everyone's. */
    private static final Map<String, List<String>> MAY_USE = Map.ofEntries(
            Map.entry("value", List.of()),
            Map.entry("sql", List.of("policy")),
            Map.entry("dialect", List.of("policy", "sql", "value")),
            Map.entry("plan", List.of("dialect", "value")),
            Map.entry("dryrun", List.of("dialect", "plan", "policy", "sql", "value")),
            Map.entry("store", List.of("dialect", "plan", "sql", "value")),
            Map.entry("apply", List.of("dialect", "dryrun", "plan", "policy", "sql", "store", "value")),
            Map.entry("assembly", List.of("apply", "dialect", "dryrun", "policy", "store")),
            Map.entry("check", List.of("assembly", "dialect", "dryrun", "plan", "policy", "sql", "store", "value")),
            Map.entry("jdbc", List.of("assembly", "dialect", "dryrun", "plan", "policy", "sql", "store", "value")));

    private static JavaClasses driver;

    @BeforeAll
    static void importDriver() {
        driver = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.llmsafe");
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.llmsafe.(*)..").should().beFreeOfCycles().check(driver);
    }

    @Test
    void eachPackageUsesOnlyWhatItsPackageInfoNames() {
        MAY_USE.forEach((pkg, uses) -> {
            List<String> allowed = new ArrayList<>(List.of(LIBRARIES));
            allowed.add("dev.llmsafe");
            allowed.add("dev.llmsafe." + pkg + "..");
            uses.forEach(u -> allowed.add("dev.llmsafe." + u + ".."));
            if (pkg.equals("dialect")) {
                allowed.addAll(List.of(VENDORS));
            }
            classes().that().resideInAPackage("dev.llmsafe." + pkg + "..").should().onlyDependOnClassesThat()
                    .resideInAnyPackage(allowed.toArray(String[]::new)).because("package-info.java of dev.llmsafe."
                            + pkg + " names what it uses").check(driver);
        });
    }

    @Test
    void everyPackageOfTheDriverIsInTheTable() {
        List<String> unnamed = driver.stream().map(c -> c.getPackageName())
                .filter(p -> p.startsWith("dev.llmsafe.") && !p.startsWith("dev.llmsafe.policy"))
                .map(p -> p.substring("dev.llmsafe.".length()).split("\\.")[0]).distinct()
                .filter(p -> !MAY_USE.containsKey(p)).toList();
        org.assertj.core.api.Assertions.assertThat(unnamed).as("packages missing from MAY_USE").isEmpty();
    }

    @Test
    void theEnginePoolsAreBuiltInTheAssemblyOnly() {
        noClasses().that().resideOutsideOfPackage("dev.llmsafe.assembly..").should()
                .callConstructorWhere(com.tngtech.archunit.core.domain.JavaConstructorCall.Predicates.target(
                        com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(
                                com.tngtech.archunit.base.DescribedPredicate.describe("a HikariCP pool or its config",
                                        o -> o.getName().startsWith("com.zaxxer.hikari.Hikari")))))
                .because("one recipe builds every pool of the engine (dev.llmsafe.assembly.Pools)").check(driver);
    }

    /**
     * A fourth database touches dialect (and the lexer in sql) only: nothing else tells the databases apart by
     * SqlDialect's constants (a switch, an ==). What differs is a method of Dialect, or of VendorUrls for what
     * is decided from a URL before any connection exists.
     */
    @Test
    void databasesAreToldApartInDialectAndSqlOnly() {
        noClasses().that().resideOutsideOfPackages("dev.llmsafe.dialect..", "dev.llmsafe.sql..")
                .should().accessField(dev.llmsafe.sql.SqlDialect.class, "POSTGRESQL")
                .orShould().accessField(dev.llmsafe.sql.SqlDialect.class, "MYSQL")
                .orShould().accessField(dev.llmsafe.sql.SqlDialect.class, "SQLITE")
                .because("a difference between databases is a method of Dialect").check(driver);
    }
}
