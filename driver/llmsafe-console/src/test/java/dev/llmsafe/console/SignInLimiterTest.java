package dev.llmsafe.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** K7's counting, without the server: per name, per address, and the window. */
class SignInLimiterTest {

    @Test
    void K7_fiveFailuresLockANameThirtyLockAnAddressUntilTheOldestLeavesTheWindow() {
        dev.llmsafe.testing.MovableClock clock = new dev.llmsafe.testing.MovableClock();
        SignInLimiter limiter = new SignInLimiter(clock);
        for (int i = 0; i < SignInLimiter.FAILURES; i++) {
            assertThat(limiter.wait("10.0.0." + i, "Dave")).isZero();
            limiter.failed("10.0.0." + i, "Dave");
        }
        assertThat(limiter.wait("10.0.0.99", " dave ")).as("the name, from any address").isPositive();
        assertThat(limiter.wait("10.0.0.1", "erin")).as("another name from those addresses").isZero();
        for (int i = 0; i < SignInLimiter.ADDRESS_FAILURES; i++) {
            limiter.failed("192.0.2.7", "name" + i);
        }
        assertThat(limiter.wait("192.0.2.7", "someone-new")).isPositive();
        assertThat(limiter.wait("192.0.2.8", "someone-new")).isZero();
        clock.advance(SignInLimiter.WINDOW.plus(Duration.ofSeconds(1)));
        assertThat(limiter.wait("192.0.2.7", "someone-new")).isZero();
        assertThat(limiter.wait("10.0.0.99", "dave")).isZero();
    }
}
