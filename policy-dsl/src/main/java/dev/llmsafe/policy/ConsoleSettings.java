package dev.llmsafe.policy;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code console} section of {@code llmsafe.json}: who may sign in to the approval console
 * ({@code llmsafe serve}) and what each may do, and how the server is reached. Immutable.
 *
 * @param users the people who sign in with a password, each with the hash {@code llmsafe hash-password}
 *     printed (never the password)
 * @param trustedProxy the header an authenticating reverse proxy sets, and the addresses it is believed
 *     from; empty: no header is believed
 * @param idleMinutes how long a session lasts without a request (1 to 1440; default 30)
 * @param tls the key store the server speaks HTTPS with; empty: plain HTTP (on 127.0.0.1, or behind a
 *     proxy that terminates TLS)
 * @param webhook a URL a short JSON message is posted to when a plan is proposed; empty: none
 * @param publicUrl the address people open the console at, for links in notifications
 */
public record ConsoleSettings(List<User> users, Optional<TrustedProxy> trustedProxy, int idleMinutes,
        Optional<Tls> tls, Optional<String> webhook, Optional<String> publicUrl) {

    /** What a person may do in the console, besides reading the plans, which every signed-in person may. */
    public enum Role {
        /** Runs guarded reads on the read page, and downloads them. */
        READER,
        /** Approves and rejects plans. */
        APPROVER,
        /** Applies approved plans. */
        APPLIER;

        /** The name written in the configuration. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A person who signs in with a password.
     *
     * @param name the name the audit records; compared without case, as the approver compares actors
     * @param roles what the person may do
     * @param passwordHash the hash of the password
     */
    public record User(String name, Set<Role> roles, Secret passwordHash) {

        /** Copies the roles. */
        public User {
            Objects.requireNonNull(name, "name");
            roles = Set.copyOf(roles);
            Objects.requireNonNull(passwordHash, "passwordHash");
        }
    }

    /**
     * An authenticating reverse proxy.
     *
     * @param header the request header carrying the signed-in user's name
     * @param addresses the proxy's own addresses: the header from any other address is refused
     * @param roles the roles of a user the proxy signs in (a user also configured above keeps their own)
     */
    public record TrustedProxy(String header, List<String> addresses, Set<Role> roles) {

        /** Copies the lists. */
        public TrustedProxy {
            addresses = List.copyOf(addresses);
            roles = Set.copyOf(roles);
        }
    }

    /**
     * HTTPS.
     *
     * @param keyStore the path of a PKCS#12 key store holding the server's key and certificate
     * @param password the key store's password
     */
    public record Tls(String keyStore, Secret password) {
    }

    /** Copies the users. */
    public ConsoleSettings {
        users = List.copyOf(users);
    }
}
