package dev.llmsafe.conformance;

import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.TestRole;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The test helper's scratch database as the probes' {@link Scratch}: the suite keeps finding servers,
 * skipping and cleaning up the way every other module's tests do, and measures with the same probes
 * the harness runs on a user's server.
 */
final class TestScratch implements Scratch {

    private final ScratchDatabase db;

    TestScratch(ScratchDatabase db) {
        this.db = db;
    }

    @Override
    public String url() {
        return db.url();
    }

    @Override
    public String user() {
        return db.user();
    }

    @Override
    public String password() {
        return db.password();
    }

    @Override
    public Connection admin() throws SQLException {
        return db.admin();
    }

    @Override
    public Connection connect() throws SQLException {
        return db.connect();
    }

    @Override
    public Connection connect(ScratchRole role) throws SQLException {
        return db.connect(new TestRole(role.name(), role.password()));
    }

    @Override
    public void execute(String... sql) throws SQLException {
        db.execute(sql);
    }

    @Override
    public ScratchRole createRole(String... grants) throws SQLException {
        TestRole r = db.createRole(grants);
        return new ScratchRole(r.name(), r.password());
    }
}
