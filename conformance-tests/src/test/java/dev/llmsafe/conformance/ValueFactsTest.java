package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * D13: how values arrive through each Java driver, per getter, as {@link ValueFacts} measures it,
 * asserted per server: the answers the code relies on. The probes live in the main code, where the
 * harness runs them on a user's server.
 */
class ValueFactsTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    // ---- facts --------------------------------------------------------------------------------
    // MySQL answers are those of the same Connector/J on MariaDB unless said otherwise: no MySQL server
    // has measured them for this project yet.

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F11_aBigintMaxArrivesExactlyThroughEveryGetter(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F11, dbs.get(engine));
        assertThat(a.text()).isEqualTo("getObject: Long exact · getLong: exact · getBigDecimal: exact · getString: exact");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F12_aBigintUnsignedMaxIsExactThroughGetObjectAndRefusedByGetLong(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F12, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "n/a (no unsigned integer type)";
            // getLong refuses rather than wrapping to -1: a wrong value never arrives silently.
            case MARIADB, MYSQL -> "getObject: BigInteger exact · getLong: error 22003 · getBigDecimal: exact · getString: exact";
            // Beyond 2^63-1 SQLite stores a REAL: the value is lost when written, and getLong then clamps.
            case SQLITE -> "getObject: Double 1.8446744073709552E19 · getLong: 9223372036854775807"
                    + " · getBigDecimal: 1.8446744073709552E+19 · getString: '1.8446744073709552e+19'";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F13_aDecimal38ArrivesExactlyExceptOnSqliteWhichStoresAReal(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F13, dbs.get(engine));
        assertThat(a.text()).isEqualTo(a.flavor() == Flavor.SQLITE
                ? "getObject: Double 1.2345678901234569E27 · getBigDecimal: 1.2345678901234569E+27"
                        + " · getString: '1.2345678901234569e+27'"
                : "getObject: BigDecimal exact · getBigDecimal: exact · getString: exact");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F14_aMicrosecondTimestampArrivesExactlyButSqliteJdbcMisreadsMicroseconds(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F14, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "getObject: Timestamp exact · getString: exact · getObject(LocalDateTime): exact"
                    + " · getObject(OffsetDateTime): 2024-02-29T13:45:56.123456Z";
            case MARIADB, MYSQL -> "getObject: LocalDateTime exact · getString: exact · getObject(LocalDateTime): exact"
                    + " · getObject(OffsetDateTime): 2024-02-29T13:45:56.123456+09:00";
            // ".123456" is read as 123456 milliseconds: two minutes later, silently.
            case SQLITE -> "getObject: String exact · getString: exact · getObject(LocalDateTime): 2024-02-29T13:47:59.456"
                    + " · getObject(OffsetDateTime): SQLFeatureNotSupportedException";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F15_aTimestampWithTimeZoneIsExactOnPostgresAndShiftedByConnectorJ(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F15, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "getObject: Timestamp exact · getString: '2024-02-29 22:45:56.123456+09'"
                    + " · getObject(LocalDateTime): error 42821 · getObject(OffsetDateTime): exact";
            // Connector/J reads the server's UTC wall clock as if it were the JVM's zone: nine hours off.
            case MARIADB, MYSQL -> "getObject: Timestamp 2024-02-29T04:45:56.123456Z · getString: '2024-02-29 13:45:56.123456'"
                    + " · getObject(LocalDateTime): 2024-02-29T13:45:56.123456"
                    + " · getObject(OffsetDateTime): 2024-02-29T13:45:56.123456+09:00";
            case SQLITE -> "getObject: String '2024-02-29 13:45:56.123456+00:00' · getString: '2024-02-29 13:45:56.123456+00:00'"
                    + " · getObject(LocalDateTime): 2024-02-29T13:47:59.456"
                    + " · getObject(OffsetDateTime): SQLFeatureNotSupportedException";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F16_aZeroDateArrivesOnlyThroughGetString(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F16, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case MARIADB, MYSQL -> "getObject: error S1009 · getString: exact · getObject(LocalDateTime): error S1009";
            default -> "n/a (no zero dates)";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F17_jsonArrivesAsTheTextStored(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F17, dbs.get(engine));
        assertThat(a.text()).isEqualTo(switch (a.flavor()) {
            case POSTGRES -> "getObject: PGobject exact · getString: exact · getBytes: exact";
            // MySQL stores JSON in a binary form and prints it back normalised (documented behaviour).
            case MYSQL -> "getObject: String '{\"role\": \"admin\"}' · getString: '{\"role\": \"admin\"}'"
                    + " · getBytes: 0x7b22726f6c65223a202261646d696e227d";
            // MariaDB's JSON is LONGTEXT with a validity check: the text comes back as written.
            case MARIADB, SQLITE -> "getObject: String exact · getString: exact · getBytes: exact";
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F18_jsonbArrivesNormalised(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F18, dbs.get(engine));
        assertThat(a.text()).isEqualTo(a.flavor() == Flavor.POSTGRES
                ? "getObject: PGobject '{\"role\": \"admin\"}' · getString: '{\"role\": \"admin\"}'"
                        + " · getBytes: 0x7b22726f6c65223a202261646d696e227d"
                : "n/a (PostgreSQL type)");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void F19_binaryArrivesExactlyThroughGetBytesButNotGetString(Engine engine) throws Exception {
        Answer a = Measured.answer(Fact.F19, dbs.get(engine));
        assertThat(a.text()).isEqualTo(a.flavor() == Flavor.POSTGRES
                ? "getObject: byte[] exact · getBytes: exact · getString: '\\x00ff80275c'"
                // Decoded as text: the two high bytes become U+FFFD, lost.
                : "getObject: byte[] exact · getBytes: exact · getString: '\\u0000\\ufffd\\ufffd'\\'");
    }
}
