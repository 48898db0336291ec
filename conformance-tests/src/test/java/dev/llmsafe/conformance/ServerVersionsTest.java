package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabase;
import dev.llmsafe.testing.ScratchDatabases;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Which servers this run measures; every fact in this module is reported against these versions. */
class ServerVersionsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @ParameterizedTest
    @EnumSource(Engine.class)
    void reportsTheServerVersionMeasured(Engine engine) throws SQLException {
        ScratchDatabase db = dbs.get(engine);
        DatabaseMetaData md = db.admin().getMetaData();
        System.out.println("measured on " + engine.key() + ": " + db.serverVersion());
        int major = md.getDatabaseMajorVersion();
        switch (engine) {
            case POSTGRES -> assertThat(major).isGreaterThanOrEqualTo(13);
            // MariaDB 10.x behind Connector/J's "5.5.5-" prefix, MariaDB 11.x as itself, MySQL 8 and 9.
            case MYSQL -> assertThat(md.getDatabaseProductVersion()).matches("(5\\.5\\.5-1\\d\\.|1\\d\\.\\d+\\.\\d+-MariaDB|8\\.|9\\.).*");
            case SQLITE -> assertThat(major).isEqualTo(3);
        }
    }
}
