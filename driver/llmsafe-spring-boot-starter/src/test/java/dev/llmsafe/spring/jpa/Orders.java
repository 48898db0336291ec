package dev.llmsafe.spring.jpa;

import org.springframework.data.jpa.repository.JpaRepository;

/** The application's repository: Spring Data JPA over the primary DataSource. */
public interface Orders extends JpaRepository<Order, Integer> {
}
