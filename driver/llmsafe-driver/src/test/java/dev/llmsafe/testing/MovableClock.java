package dev.llmsafe.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move forward: plan expiry, the console's idle timeout and sign-in window. Thread-safe. */
public final class MovableClock extends Clock {

    private volatile Instant now = Instant.now();

    /** Moves the clock forward. */
    public void advance(Duration d) {
        now = now.plus(d);
    }

    @Override
    public ZoneOffset getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
