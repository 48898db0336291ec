package dev.llmsafe.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyDslTest {

    @Test
    void theDslReadsLikeThePolicyAndBuildsAnImmutableValue() {
        Policy p = Policy.define(b -> b
                .table("orders", t -> t.impact("moves money").maxUpdateRows(20).denyWrite("total", "billing"))
                .table("public.members")
                .secret("password_hash", "a stored credential"));
        assertThat(p.tables()).hasSize(2);
        assertThat(p.tables().keySet()).extracting(QualifiedName::toString).containsExactly("orders", "public.members");
        assertThatThrownBy(() -> p.tables().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> p.secrets().clear()).isInstanceOf(UnsupportedOperationException.class);
        TablePolicy members = p.table(QualifiedName.parse("public.members", 2)).orElseThrow();
        assertThat(members.impact()).isEmpty();
        assertThat(members.name().qualifier().toString()).isEqualTo("public");
        assertThat(p.maxUpdateRows(p.table(QualifiedName.parse("orders", 2)).orElseThrow())).isEqualTo(20);
        assertThat(p.maxUpdateRows(members)).isEqualTo(200);
    }

    @Test
    void badArgumentsAreRefusedWithAReason() {
        assertThatThrownBy(() -> Policy.define(b -> b.table("a b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("\"a b\" is not a valid table name;");
        assertThatThrownBy(() -> Policy.define(b -> b.table("t").table("t")))
                .hasMessage("table t is listed twice");
        assertThatThrownBy(() -> Policy.define(b -> b.maxUpdateRows(0)))
                .hasMessage("maxUpdateRows must be a whole number from 1 to 10000, was 0");
        assertThatThrownBy(() -> Policy.define(b -> b.table("t", t -> t.maxDeleteRows(10_001))))
                .hasMessage("maxDeleteRows must be a whole number from 1 to 10000, was 10001");
        assertThatThrownBy(() -> Policy.define(b -> b.read(r -> r.maxCost(0))))
                .hasMessage("maxCost must be a positive number, was 0.0");
        assertThatThrownBy(() -> Policy.define(b -> b.read(r -> r.timeoutMs(0))))
                .hasMessage("timeoutMs must be a whole number from 1 to 3600000, was 0");
        assertThatThrownBy(() -> Policy.define(b -> b.secret("x", "")))
                .hasMessage("the reason for secret x is empty; say in words why, it is shown to the person who asked");
        assertThatThrownBy(() -> Policy.define(b -> b.table("t", t -> t.autoColumns("a", "a"))))
                .hasMessage("auto column a of t is listed twice");
        assertThatThrownBy(() -> Policy.define(b -> b.table("t", t -> t.denyWrite("c", "x").denyWrite("c", "y"))))
                .hasMessage("write-denied column c of t is listed twice");
    }

    @Test
    void namesKeepTheirQuoting() {
        QualifiedName q = QualifiedName.parse("\"My Schema\".\"Or\"\"ders\"", 2);
        assertThat(q.parts()).containsExactly(new Identifier("My Schema", true), new Identifier("Or\"ders", true));
        assertThat(q.toString()).isEqualTo("\"My Schema\".\"Or\"\"ders\"");
        assertThat(QualifiedName.parse("Orders", 2)).isNotEqualTo(QualifiedName.parse("\"Orders\"", 2));
        assertThat(QualifiedName.parse("a.b", 2).parts()).containsExactly(Identifier.of("a"), Identifier.of("b"));
        assertThatThrownBy(() -> QualifiedName.parse("\"open", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QualifiedName.parse("\"a\"b", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QualifiedName.parse("a..b", 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new QualifiedName(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Identifier.of("x".repeat(129))).isInstanceOf(IllegalArgumentException.class);
    }
}
