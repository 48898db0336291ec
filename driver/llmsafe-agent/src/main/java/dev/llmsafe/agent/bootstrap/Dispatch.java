package dev.llmsafe.agent.bootstrap;

/**
 * What the code woven into DataSource.getConnection and Driver.connect calls. This class is put on the
 * bootstrap class path before anything is woven, so that every class loader resolves it to this one
 * copy (a pool loaded by a web application's loader too); it uses nothing but java.base, since the
 * bootstrap loader sees no other module (not even java.sql, hence the Object parameters).
 *
 * <p>It counts, per thread, the calls of getConnection in progress: only the outermost decides, so a
 * pool whose getConnection opens a physical connection beneath it (HikariCP's first connection, a pool
 * over a pool) is judged once, on what it hands out, and its physical connections stay raw. It also
 * counts the calls of the scope's methods in progress (the agent weaves them too): while there are
 * none, no frame of the scope can be on the stack, and the hook need not walk it. The count only ever
 * spares a walk; the walk decides.
 */
public final class Dispatch {

    /** What decides, installed by the agent once. */
    public interface Hook {
        /**
         * Driver.connect is about to run: the guarded connection to return instead, or null to let the
         * driver connect as usual.
         *
         * @param outermost whether no getConnection of a data source is in progress on this thread
         * @param inScope whether a method of the scope is in progress on this thread
         */
        Object connect(Object driver, String url, Object info, boolean outermost, boolean inScope) throws Exception;

        /**
         * The outermost getConnection of a data source returned {@code connection}, while a method of the
         * scope is in progress on this thread: what to hand out.
         */
        Object lent(Object dataSource, Object connection) throws Exception;
    }

    /** Per thread: [0] getConnection calls in progress, [1] calls of the scope's methods in progress. */
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[2]);
    private static volatile Hook hook;

    private Dispatch() {
    }

    /** Installs the hook; a second call is refused, so that nothing can replace the first. */
    public static synchronized void install(Hook h) {
        if (hook != null) {
            throw new IllegalStateException("the llmsafe agent is already installed");
        }
        hook = h;
    }

    /** A data source's getConnection begins; returns the depth it began at (0: the outermost). */
    public static int enter() {
        return DEPTH.get()[0]++;
    }

    /**
     * A data source's getConnection ended: returns what the caller gets. Only the outermost call asks
     * the hook; a failed call ({@code connection} null) is left alone.
     */
    public static Object exit(int depth, Object dataSource, Object connection) throws Exception {
        int[] d = DEPTH.get();
        d[0] = depth;
        Hook h = hook;
        if (depth != 0 || d[1] == 0 || connection == null || h == null) {
            return connection;
        }
        return h.lent(dataSource, connection);
    }

    /** Driver.connect begins: the connection to return instead of the driver's, or null. */
    public static Object connect(Object driver, String url, Object info) throws Exception {
        Hook h = hook;
        if (h == null || url == null) {
            return null;
        }
        int[] d = DEPTH.get();
        return h.connect(driver, url, info, d[0] == 0, d[1] != 0);
    }

    /** A method of the scope begins. */
    public static void enterScope() {
        DEPTH.get()[1]++;
    }

    /** A method of the scope ends (a constructor that throws does not say so: a walk too many, no more). */
    public static void exitScope() {
        int[] d = DEPTH.get();
        if (d[1] > 0) {
            d[1]--;
        }
    }
}
