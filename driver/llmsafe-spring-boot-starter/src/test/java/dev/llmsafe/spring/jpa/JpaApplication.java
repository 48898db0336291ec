package dev.llmsafe.spring.jpa;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Spring Boot application with JPA and the starter, as a user writes one. */
@SpringBootApplication
public class JpaApplication {
}
