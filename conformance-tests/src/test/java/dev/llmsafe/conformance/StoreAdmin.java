package dev.llmsafe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.conformance.EndToEnd.Deployed;
import dev.llmsafe.conformance.ServerId.Flavor;
import dev.llmsafe.testing.Engine;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plan store of an {@link EndToEnd} deployment as its database's administrator sees it (SQLite:
 * the store's own file): what a person who can write the store can do behind llmsafe's back.
 */
final class StoreAdmin {

    private StoreAdmin() {
    }


    static Connection connect(Deployed d) throws SQLException {
        if (d.engine() == Engine.SQLITE) {
            return DriverManager.getConnection("jdbc:sqlite:" + d.home().resolve("store.db"));
        }
        String app = d.app().name();
        String url = d.flavor() == Flavor.POSTGRES
                ? d.app().url().replace("currentSchema=" + app, "currentSchema=" + d.roles().store())
                : d.app().url().replace("/" + app, "/" + d.roles().store());
        return d.app().user() == null ? DriverManager.getConnection(url)
                : DriverManager.getConnection(url, d.app().user(), d.app().password());
    }

    static void execute(Deployed d, String... sql) throws SQLException {
        try (Connection c = connect(d); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    static String get(Deployed d, String id, String column) throws SQLException {
        try (Connection c = connect(d);
             PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM llmsafe_plans WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("plan %s in the store", id).isTrue();
                return rs.getString(1);
            }
        }
    }

    static void set(Deployed d, String id, String column, String value) throws SQLException {
        try (Connection c = connect(d);
             PreparedStatement ps = c.prepareStatement("UPDATE llmsafe_plans SET " + column + " = ? WHERE id = ?")) {
            ps.setString(1, value);
            ps.setString(2, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    /** Replaces text in the stored plan, recomputing its checksum (SHA-256 of the text) or not. */
    static void editPlan(Deployed d, String id, String from, String to, boolean checksum) throws Exception {
        String json = get(d, id, "plan_json");
        String edited = json.replace(from, to);
        assertThat(edited).as("the edit of plan %s", id).isNotEqualTo(json);
        set(d, id, "plan_json", edited);
        if (checksum) {
            set(d, id, "checksum", sha256(edited));
        }
    }

    /** Makes the stored plan older by some hours, its checksum recomputed. */
    static void age(Deployed d, String id, int hours) throws Exception {
        String json = get(d, id, "plan_json");
        Matcher m = Pattern.compile("\"createdAt\":\"([^\"]+)\"").matcher(json);
        assertThat(m.find()).as(json).isTrue();
        String older = Instant.parse(m.group(1)).minus(Duration.ofHours(hours)).toString();
        editPlan(d, id, m.group(), "\"createdAt\":\"" + older + "\"", true);
        set(d, id, "created_at", older);
    }

    /** Removes plans and their audit trail. */
    static void remove(Deployed d, List<String> ids) throws SQLException {
        try (Connection c = connect(d)) {
            for (String table : List.of("llmsafe_audit WHERE plan_id = ?", "llmsafe_plans WHERE id = ?")) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table)) {
                    for (String id : ids) {
                        ps.setString(1, id);
                        ps.executeUpdate();
                    }
                }
            }
        }
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    /** The administrator's connection to the application's database, as a configuration's connection object. */
    static String adminConnection(Deployed d) throws Exception {
        ObjectMapper json = new ObjectMapper();
        var node = json.createObjectNode().put("url", d.app().url());
        if (d.app().user() != null) {
            node.put("user", d.app().user());
        }
        if (d.app().password() != null) {
            node.put("password", d.app().password());
        }
        return json.writeValueAsString(node);
    }
}
