package dev.llmsafe.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A read result holds only what JSON can carry, so an engine's mistake fails here, not on the wire. */
class ReadResultTest {

    private static final List<ReadResult.Column> TWO = List.of(new ReadResult.Column("id", "int8"),
            new ReadResult.Column("note", "text"));

    @Test
    void jsonValuesAndNullsAreKeptAndTheResultCannotBeChangedAfterwards() {
        List<Object> row = new ArrayList<>(Arrays.asList(1L, null));
        List<List<Object>> rows = new ArrayList<>();
        rows.add(row);
        ReadResult r = new ReadResult(TWO, rows, false);
        row.set(0, 2L);
        rows.clear();
        assertThat(r.rows()).hasSize(1);
        assertThat(r.rows().get(0)).containsExactly(1L, null);
        assertThatThrownBy(() -> r.rows().get(0).set(1, "x")).isInstanceOf(UnsupportedOperationException.class);
        new ReadResult(TWO, List.of(Arrays.asList(new BigDecimal("1.10"), true), Arrays.asList(2.5d, "x")), true);
    }

    @Test
    void aValueThatIsNotJsonIsRefused() {
        assertThatThrownBy(() -> new ReadResult(TWO, List.of(Arrays.asList(1L, new Timestamp(0))), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("give it as a string");
        assertThatThrownBy(() -> new ReadResult(TWO, List.of(Arrays.asList(1L, Double.NaN)), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a JSON number");
        assertThatThrownBy(() -> new ReadResult(TWO, List.of(Arrays.asList(1L, Float.POSITIVE_INFINITY)), false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRowMustHaveOneValuePerColumn() {
        assertThatThrownBy(() -> new ReadResult(TWO, List.of(List.of(1L)), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 values for 2 columns");
    }
}
