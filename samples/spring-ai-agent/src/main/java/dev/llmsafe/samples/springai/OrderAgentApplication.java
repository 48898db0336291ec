package dev.llmsafe.samples.springai;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application with its own DataSource (application.properties) and, from
 * llmsafe-spring-boot-starter, the guarded {@code llmsafeDataSource} its agent's tools use; its chat model is
 * the application's choice: add a Spring AI model starter to run it with a real model.
 */
@SpringBootApplication
public class OrderAgentApplication {

    /** Starts the application. */
    public static void main(String[] args) {
        SpringApplication.run(OrderAgentApplication.class, args);
    }
}
