package dev.llmsafe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 15: the llmsafe-driver artifact an application embeds brings none of the operator tools' libraries.
 * The build's enforcer rule (bannedDependencies in llmsafe-driver's pom) fails when one reaches the compile
 * or runtime scope; this test looks at what the driver's own tests actually run with (its runtime class
 * path plus the test libraries: JUnit, AssertJ, ArchUnit, slf4j-simple), so a library that arrives another way (a shaded copy, a transitive one the
 * rule's patterns miss) is caught too.
 */
class DriverClassPathTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "picocli.CommandLine", // the command line's parser
        "io.modelcontextprotocol.spec.McpSchema", // the MCP SDK
        "org.springframework.boot.SpringApplication",
        "org.springframework.ai.tool.annotation.Tool",
        "dev.langchain4j.agent.tool.Tool",
        "jakarta.servlet.Servlet",
        "dev.llmsafe.cli.Main", // the operator modules themselves
        "dev.llmsafe.mcp.McpServer",
        "dev.llmsafe.tools.DatabaseTools",
        "dev.llmsafe.langchain4j.LlmSafeTools",
        "dev.llmsafe.agent.LlmSafeAgent", // the javaagent
    })
    void theDriverRunsWithoutTheOperatorToolsLibraries(String className) {
        assertThat(loadable(className)).as(className + " on the driver's class path").isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"net.sf.jsqlparser.parser.CCJSqlParserUtil", "com.zaxxer.hikari.HikariDataSource",
        "com.fasterxml.jackson.core.JsonFactory", "org.slf4j.LoggerFactory", "dev.llmsafe.policy.Policy"})
    void theDriversOwnDependenciesAreThere(String className) {
        assertThat(loadable(className)).as(className).isTrue();
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, DriverClassPathTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
