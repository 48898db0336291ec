package dev.llmsafe.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmsafe.dryrun.Planning;
import dev.llmsafe.policy.Policy;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import dev.llmsafe.value.Visible;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * C5 and C6 through a real dry run on every dialect: the texts the database and the proposer hand the
 * card (names, the statement, parameters, values) are shown with their invisible and bidi characters as
 * escapes, on the card and in the JSON's display forms, while the JSON keeps them exact; a change whose
 * sides look alike is flagged.
 */
class CardTextTest {

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();
    private static final Map<Engine, Planning> PLANNING = new EnumMap<>(Engine.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A table and a column whose names hold a bidi override and a zero-width space. */
    static final String TABLE = "c5_t\u202Eab";
    static final String NOTE = "no\u200Bte";
    static final String IMPACT = "Changing a note\u2066 changes what support reads.";

    /** Look-alike pairs (before, after, the first reason on the card) and ordinary edits (no reason). */
    static final List<String[]> PAIRS = List.of(
            new String[] {"admin", "\u0430dmin", "characters that are drawn alike"},
            new String[] {"COPE", "\u0421\u041E\u0420\u0415", "characters that are drawn alike"},
            new String[] {"admin", "\uFF41\uFF44\uFF4D\uFF49\uFF4E", "how the same characters are encoded"},
            new String[] {"admin", "ad\u200Bmin", "invisible characters"},
            new String[] {"John Smith", "John\u00A0Smith", "spaces"},
            new String[] {"admin", "admin ", "spaces"},
            new String[] {"user1", "userl", "characters that are drawn alike"},
            new String[] {"caf\u00E9", "cafe\u0301", "how the same characters are encoded"},
            new String[] {"hello", "w\u043Erld", "mixes letters of different scripts"},
            new String[] {"packed", "shipped", null},
            new String[] {"\u041F\u0440\u0438\u0432\u0435\u0442", "\u041F\u043E\u043A\u0430", null},
            new String[] {"Admin", "admin", null},
            new String[] {"Tokyo", "Tokyo\u6771\u4EAC", null});

    static Planning planning(Engine engine) throws SQLException {
        Planning p = PLANNING.get(engine);
        if (p == null) {
            p = new Planning(dbs.get(engine));
            String t = p.dialect.quote(TABLE);
            p.db.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, " + p.dialect.quote(NOTE)
                            + " VARCHAR(100), label VARCHAR(100))",
                    "INSERT INTO " + t + " VALUES (1, 'admin', 'x')",
                    "CREATE TABLE c6_names (id INT PRIMARY KEY, name VARCHAR(100))");
            List<String> values = new ArrayList<>();
            for (int i = 0; i < PAIRS.size(); i++) {
                values.add("(" + (i + 1) + ", '" + PAIRS.get(i)[0] + "')");
            }
            p.db.execute("INSERT INTO c6_names VALUES " + String.join(", ", values));
            PLANNING.put(engine, p);
        }
        return p;
    }

    @AfterAll
    static void closePools() {
        PLANNING.values().forEach(Planning::close);
        PLANNING.clear();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C5_invisibleAndBidiCharactersAreEscapesEverywhereOnTheCard(Engine engine) throws Exception {
        Planning p = planning(engine);
        Policy policy = Policy.define(x -> x.table("\"" + TABLE + "\"", t -> t.impact(IMPACT)));
        String t = p.dialect.quote(TABLE);
        String n = p.dialect.quote(NOTE);
        String sql = "UPDATE " + t + " SET " + n + " = ?, label = 'evil\u202Egpj.exe\u001B[2J'"
                + " WHERE id = 1 AND label <> '\uDB40\uDC41'";
        List<String> before = p.snapshot(t);
        Plan plan = p.planner(policy).plan(List.of(p.proposal(sql, "a\u202Eb\u00A0c")), "mallory\u202E\u200B");
        assertThat(p.snapshot(t)).isEqualTo(before);
        String card = plan.card();
        String shownT = t.replace("\u202E", "\\u{202E}");
        String shownN = n.replace("\u200B", "\\u{200B}");
        String schema = plan.statements().get(0).table().schema();

        assertThat(card.codePoints().filter(cp -> cp != '\n' && Visible.hidden(cp))).as(card).isEmpty();
        assertThat(card)
                .contains("  UPDATE " + shownT + " SET " + shownN + " = ?, label = 'evil\\u{202E}gpj.exe\\u{1B}[2J'"
                        + " WHERE id = 1 AND label <> '\\u{E0041}'      [1: 'a\\u{202E}b\\u{A0}c' (setString)]\n")
                .contains("  " + schema + ".c5_t\\u{202E}ab: Changing a note\\u{2066} changes what support reads.\n")
                .contains("1 row would change, in 2 columns: no\\u{200B}te, label\n")
                .contains("  id = 1\n    no\\u{200B}te: 'admin' -> 'a\\u{202E}b\\u{A0}c'\n"
                        + "    label: 'x' -> 'evil\\u{202E}gpj.exe\\u{1B}[2J'\n")
                .contains("A person other than the proposer (mallory\\u{202E}\\u{200B}) must approve it")
                .contains("How to read this card\n  - " + Card.ESCAPES + "\n");

        String json = plan.toJson();
        assertThat(json.codePoints().filter(Visible::hidden)).as("raw in the JSON text").isEmpty();
        JsonNode root = JSON.readTree(json);
        JsonNode s = root.get("statements").get(0);
        assertThat(s.get("sql").textValue()).isEqualTo(sql);
        assertThat(s.get("parameters").get(0).get("value").textValue()).isEqualTo("a\u202Eb\u00A0c");
        assertThat(s.get("display").get("parameters").get(0).textValue()).isEqualTo("'a\\u{202E}b\\u{A0}c' (setString)");
        assertThat(s.get("display").get("sql").textValue()).isEqualTo(Visible.statementLine(sql)).contains("\\u{E0041}");
        assertThat(s.get("display").get("table").textValue()).isEqualTo(schema + ".c5_t\\u{202E}ab");
        assertThat(s.get("display").get("impact").textValue()).isEqualTo("Changing a note\\u{2066} changes what support reads.");
        assertThat(s.get("display").get("changedColumns").get(0).textValue()).isEqualTo("no\\u{200B}te");
        JsonNode row = s.get("rows").get(0);
        assertThat(row.get("display").get("key").get(0).get("value").textValue()).isEqualTo("1");
        JsonNode note = row.get("columns").get(0);
        assertThat(note.get("column").textValue()).isEqualTo(NOTE);
        assertThat(note.get("display").get("column").textValue()).isEqualTo("no\\u{200B}te");
        assertThat(note.get("display").get("before").textValue()).isEqualTo("'admin'");
        assertThat(note.get("display").get("after").textValue()).isEqualTo("'a\\u{202E}b\\u{A0}c'");
        assertThat(root.get("proposer").textValue()).isEqualTo("mallory\u202E\u200B");
        assertThat(root.get("display").get("proposer").textValue()).isEqualTo("mallory\\u{202E}\\u{200B}");
        assertThat(Plan.fromJson(json)).isEqualTo(plan);
        assertThat(Plan.fromJson(json).card()).isEqualTo(card);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void C6_aChangeWhoseSidesLookAlikeIsFlaggedOnTheCardAndInTheJson(Engine engine) throws Exception {
        Planning p = planning(engine);
        Policy policy = Policy.define(x -> x.table("c6_names", t -> t.impact("A name decides who is who."))
                .maxUpdateRows(50));
        StringBuilder sql = new StringBuilder("UPDATE c6_names SET name = CASE id");
        for (int i = 0; i < PAIRS.size(); i++) {
            sql.append(" WHEN ").append(i + 1).append(" THEN '").append(PAIRS.get(i)[1]).append('\'');
        }
        sql.append(" END WHERE id <= ").append(PAIRS.size());
        List<String> before = p.snapshot("c6_names");
        Plan plan = p.plan(policy, sql.toString());
        assertThat(p.snapshot("c6_names")).isEqualTo(before);

        String card = plan.card();
        JsonNode rows = JSON.readTree(plan.toJson()).get("statements").get(0).get("rows");
        long flagged = PAIRS.stream().filter(x -> x[2] != null).count();
        assertThat(card).contains("  - " + flagged + " changed values look the same before and after but are not:"
                + " read the lines marked LOOKS ALIKE.\n");
        for (int i = 0; i < PAIRS.size(); i++) {
            String[] pair = PAIRS.get(i);
            String block = block(card, i + 1);
            JsonNode column = row(rows, i + 1).get("columns").get(0);
            assertThat(block).as(block).startsWith("  id = " + (i + 1) + "\n    name: " + Visible.quoted(pair[0])
                    + " -> " + Visible.quoted(pair[1]) + "\n");
            if (pair[2] == null) {
                assertThat(block).as(block).doesNotContain("LOOKS ALIKE");
                assertThat(column.has("lookAlike")).as(block).isFalse();
            } else {
                assertThat(block).as(block).contains("\n      LOOKS ALIKE: ").contains(pair[2]);
                assertThat(column.get("lookAlike").get("reasons").size()).as(block).isPositive();
                assertThat(column.get("lookAlike").get("detail").textValue()).as(block).contains("U+");
            }
        }
        assertThat(block(card, 1)).contains("char 1 was U+0061 LATIN SMALL LETTER A and is U+0430 CYRILLIC SMALL LETTER A");
        assertThat(row(rows, 1).get("columns").get(0).get("lookAlike").get("reasons").toString())
                .isEqualTo("[\"CONFUSABLE\",\"MIXED_SCRIPT\"]");
    }

    /** The card's lines for one row: from its key line to the next key line or blank line. */
    private static String block(String card, int id) {
        int from = card.indexOf("  id = " + id + "\n");
        assertThat(from).as("row %d on the card", id).isNotNegative();
        int next = card.indexOf("\n  id = ", from + 1);
        int blank = card.indexOf("\n\n", from);
        int to = next < 0 ? blank : blank < 0 ? next : Math.min(next, blank);
        return card.substring(from, to + 1);
    }

    private static JsonNode row(JsonNode rows, int id) {
        for (JsonNode r : rows) {
            if (r.get("key").get("id").get("v").textValue().equals(Integer.toString(id))) {
                return r;
            }
        }
        throw new AssertionError("no row " + id);
    }
}
