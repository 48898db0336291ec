package dev.llmsafe.samples.springai;

import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application whose DataSource is {@code jdbc:llmsafe:} (application.properties) and whose
 * chat model is the application's choice: add a Spring AI model starter to run it with a real model.
 */
@SpringBootApplication
public class OrderAgentApplication {

    /** Starts the application. */
    public static void main(String[] args) {
        SpringApplication.run(OrderAgentApplication.class, args);
    }

    /** Replaces Spring AI's default processor, which would not show the model a plain JDBC tool's plan. */
    @Bean
    ToolExecutionExceptionProcessor toolExecutionExceptionProcessor() {
        return new LlmSafeToolExceptionProcessor();
    }
}
