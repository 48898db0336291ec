package com.acme.shop;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * What HikariCP's getConnection and close cost outside the agent's scope, at two call-stack depths (the
 * agent walks the stack inside its scope, never outside it, so depth should not matter here): the median
 * and the fastest of 15 trials of 50,000 calls each, after a warm-up of 10 trials at each depth. Run by AgentBenchmark with and
 * without the agent. Argument: a SQLite URL.
 */
public final class ShopBenchmark {

    private static final int CALLS = 50_000;

    private ShopBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(args[0]);
        c.setMaximumPoolSize(1);
        try (HikariDataSource pool = new HikariDataSource(c)) {
            for (int depth : new int[] {10, 200}) {
                atDepth(depth, () -> trials(pool, 10));
            }
            for (int depth : new int[] {10, 200}) {
                double[] ns = atDepth(depth, () -> trials(pool, 15));
                Arrays.sort(ns);
                System.out.printf("BENCH depth=%d ns=%.0f min=%.0f%n", depth, ns[ns.length / 2], ns[0]);
            }
        }
    }

    interface Work {
        double[] run() throws SQLException;
    }

    private static double[] atDepth(int depth, Work w) throws SQLException {
        return depth <= 1 ? w.run() : atDepth(depth - 1, w);
    }

    private static double[] trials(HikariDataSource pool, int n) throws SQLException {
        double[] ns = new double[n];
        for (int t = 0; t < n; t++) {
            long start = System.nanoTime();
            for (int i = 0; i < CALLS; i++) {
                try (Connection conn = pool.getConnection()) {
                    if (conn == null) {
                        throw new IllegalStateException();
                    }
                }
            }
            ns[t] = (System.nanoTime() - start) / (double) CALLS;
        }
        return ns;
    }
}
