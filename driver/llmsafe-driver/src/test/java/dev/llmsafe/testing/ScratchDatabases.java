package dev.llmsafe.testing;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that hands each test class one scratch database per engine and drops them
 * after the class:
 *
 * <pre>{@code
 * @RegisterExtension static final ScratchDatabases dbs = new ScratchDatabases();
 *
 * @ParameterizedTest @EnumSource(Engine.class)
 * void something(Engine engine) throws SQLException {
 *     ScratchDatabase db = dbs.get(engine);   // skipped (or failed, if required) without a server
 *     db.execute("CREATE TABLE t (id INT PRIMARY KEY)");
 * }
 * }</pre>
 *
 * Register it in a static field: the databases live as long as the class's tests.
 */
public final class ScratchDatabases implements AfterAllCallback {

    private final Map<Engine, ScratchDatabase> shared = new EnumMap<>(Engine.class);
    private final List<ScratchDatabase> extra = new ArrayList<>();

    /** The class's scratch database on an engine, created on first use. */
    public synchronized ScratchDatabase get(Engine engine) {
        return shared.computeIfAbsent(engine, ScratchDatabase::create);
    }

    /** Another, separate scratch database on an engine, dropped after the class. */
    public synchronized ScratchDatabase fresh(Engine engine) {
        ScratchDatabase db = ScratchDatabase.create(engine);
        extra.add(db);
        return db;
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        List<AssertionError> failures = new ArrayList<>();
        List<ScratchDatabase> all = new ArrayList<>(shared.values());
        all.addAll(extra);
        shared.clear();
        extra.clear();
        for (ScratchDatabase db : all) {
            try {
                db.close();
            } catch (AssertionError e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }
}
