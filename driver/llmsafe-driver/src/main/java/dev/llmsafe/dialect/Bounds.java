package dev.llmsafe.dialect;

/**
 * How long a dry run or an apply may wait for a row lock and run one statement (D6, A9). Set as real
 * session settings; a dialect that cannot enforce one says so in its limitations (E3).
 *
 * @param lockTimeoutMs the longest wait for a lock, in milliseconds
 * @param statementTimeoutMs the longest a statement may run, in milliseconds
 */
public record Bounds(int lockTimeoutMs, int statementTimeoutMs) {

    /** Two seconds for a lock, ten for a statement. */
    public static final Bounds DEFAULT = new Bounds(2_000, 10_000);

    /** Checks that both are positive. */
    public Bounds {
        if (lockTimeoutMs <= 0 || statementTimeoutMs <= 0) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
    }
}
