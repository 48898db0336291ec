package dev.llmsafe.bench;

import dev.llmsafe.sql.LexSettings;
import dev.llmsafe.sql.StatementAnalyzer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Prints the median time of one statement analysis, cold (lex + parse + checks, no cache) and from the
 * verdict cache. Not part of the normal test run (its name does not end in Test); run it with
 * {@code mvn -B -ntp -pl driver/llmsafe-driver -am verify -Dtest=AnalysisBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class AnalysisBenchmark {

    private static final String[] STATEMENTS = {
        "UPDATE orders SET status = 'shipped' WHERE id = 42",
        "UPDATE orders SET qty = qty + 1, note = ? WHERE id = ? AND status IN ('open', 'packed')",
        "SELECT o.id, i.sku FROM orders o JOIN items i ON i.order_id = o.id WHERE o.status = ? ORDER BY o.id LIMIT 50",
    };

    @Test
    void printMedians() throws Exception {
        for (String sql : STATEMENTS) {
            StatementAnalyzer cold = new StatementAnalyzer(20_000, 0);
            StatementAnalyzer cached = new StatementAnalyzer(20_000);
            LexSettings pg = LexSettings.postgres(true);
            double coldMedian = median(() -> cold.analyze(sql, pg), 5_000, 20_000);
            cached.analyze(sql, pg);
            double cachedMedian = median(() -> cached.analyze(sql, pg), 20_000, 200_000);
            System.out.printf("analysis  cold %7.2f us   cached %6.3f us   %s%n", coldMedian, cachedMedian, sql);
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    private static double median(Call call, int warmup, int runs) throws Exception {
        for (int i = 0; i < warmup; i++) {
            call.run();
        }
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            call.run();
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return t[runs / 2] / 1000.0;
    }
}
