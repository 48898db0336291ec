package dev.llmsafe.spring;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Spring AI on the class path and the guard configured: the bean {@code llmsafeTools}
 * ({@link LlmSafeSpringAiTools}, the four tools, for {@code ChatClient.Builder.defaultTools(llmsafeTools)})
 * and a {@link ToolExecutionExceptionProcessor} that shows the model the card of a
 * {@code PlanPendingException} and the refusal of a {@code RefusedException} thrown by the application's own
 * JDBC tools. Runs before Spring AI's tool-calling auto-configuration, whose default processor it replaces;
 * an application's own processor bean wins.
 */
@AutoConfiguration(after = LlmSafeAutoConfiguration.class,
        beforeName = "org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration")
@ConditionalOnClass({ToolCallback.class, ToolExecutionExceptionProcessor.class})
@ConditionalOnBean(LlmSafeDatabase.class)
public class LlmSafeSpringAiAutoConfiguration {

    /** The four tools, proposing as {@code llmsafe.proposer}. */
    @Bean
    @ConditionalOnMissingBean
    LlmSafeSpringAiTools llmsafeTools(LlmSafeDatabase database, LlmSafeProperties properties) {
        return new LlmSafeSpringAiTools(database.tools(), properties.getProposer());
    }

    /** Cards and refusals as the tool's result; any other exception still fails the call. */
    @Bean
    @ConditionalOnMissingBean
    ToolExecutionExceptionProcessor toolExecutionExceptionProcessor() {
        return new LlmSafeToolExceptionProcessor();
    }
}
