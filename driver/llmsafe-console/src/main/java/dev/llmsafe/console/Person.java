package dev.llmsafe.console;

import dev.llmsafe.policy.ConsoleSettings.Role;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Who is signed in: the name the store records as the actor, and what the person may do.
 *
 * @param name the authenticated name
 * @param roles the roles
 * @param viaProxy whether the name came from the trusted proxy's header (then the proxy signs out)
 */
record Person(String name, Set<Role> roles, boolean viaProxy) {

    /** Copies the roles. */
    Person {
        roles = Set.copyOf(roles);
    }

    boolean may(Role role) {
        return roles.contains(role);
    }

    String roleNames() {
        return new TreeSet<>(roles).stream().map(Role::label).collect(Collectors.joining(", "));
    }
}
