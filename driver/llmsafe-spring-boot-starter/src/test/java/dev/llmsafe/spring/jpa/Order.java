package dev.llmsafe.spring.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The application's own entity, written through JPA on the primary DataSource. */
@Entity
@Table(name = "orders")
public class Order {

    @Id
    private Integer id;

    private String status;

    protected Order() {
    }

    /** A new order. */
    public Order(int id, String status) {
        this.id = id;
        this.status = status;
    }

    /** @return its status */
    public String status() {
        return status;
    }
}
