package graphmem;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.api.KernelTransactionHandle;
import org.neo4j.kernel.api.TerminationMark;
import org.neo4j.kernel.api.query.ExecutingQuery;
import org.neo4j.kernel.impl.api.KernelTransactions;
import org.neo4j.kernel.internal.GraphDatabaseAPI;
import org.neo4j.server.CommunityBootstrapper;

/**
 * Embedded Neo4j Community with the Bolt connector, for graphmem's local runtime.
 *
 * Usage: java -Xmx.. -cp lib/*:classes graphmem.Launcher HOME HOST PORT PAGECACHE_MB AUTH(true|false)
 *        [TX_TIMEOUT_S TX_MAX_MB TX_TOTAL_MAX_MB STOP_GRACE_S [HTTP_PORT]]
 * Writes HOME/launcher.pid once Bolt is listening; a shutdown hook (SIGTERM) stops the DBMS cleanly.
 *
 * HTTP_PORT > 0 starts the database the way the community server does (CommunityBootstrapper, with
 * server.http.enabled), so Neo4j's HTTP API and Neo4j Browser (the neo4j-browser jar on the class
 * path) answer on HOST:HTTP_PORT/browser/; 0 starts the embedded DBMS with Bolt only.
 *
 * Bounds on a runaway query: db.transaction.timeout (TX_TIMEOUT_S, the default for transactions
 * that set none), db.memory.transaction.max (TX_MAX_MB per transaction) and
 * dbms.memory.transaction.total.max (TX_TOTAL_MAX_MB for all of them); 0 leaves a limit unset.
 * Neo4j marks a timed-out or abandoned transaction terminated, but a single expression that loops
 * (reduce over a huge range) never looks at the mark and keeps a core busy. The reaper stops the
 * thread of a query whose transaction has been marked terminated for STOP_GRACE_S seconds and is
 * still running Cypher (not committing, not rolling back); 0 turns the reaper off.
 */
public final class Launcher {
    private Launcher() {}

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath();
        String host = args[1];
        int port = Integer.parseInt(args[2]);
        long pageCacheMb = Long.parseLong(args[3]);
        boolean auth = Boolean.parseBoolean(args[4]);
        long txTimeoutS = args.length > 5 ? Long.parseLong(args[5]) : 600;
        long txMaxMb = args.length > 6 ? Long.parseLong(args[6]) : 0;
        long txTotalMaxMb = args.length > 7 ? Long.parseLong(args[7]) : 0;
        double stopGraceS = args.length > 8 ? Double.parseDouble(args[8]) : 2.0;
        Files.createDirectories(home);

        long httpPort = args.length > 9 ? Long.parseLong(args[9]) : 0;
        Runnable shutdown;
        DatabaseManagementService dbms;
        if (httpPort > 0) {
            Map<String, String> config = new HashMap<>();
            config.put(BoltConnector.enabled.name(), "true");
            config.put(BoltConnector.listen_address.name(), host + ":" + port);
            config.put(GraphDatabaseSettings.auth_enabled.name(), Boolean.toString(auth));
            config.put(GraphDatabaseSettings.pagecache_memory.name(), pageCacheMb + "m");
            config.put(GraphDatabaseSettings.udc_enabled.name(), "false");
            config.put(GraphDatabaseSettings.transaction_timeout.name(), txTimeoutS + "s");
            config.put(GraphDatabaseSettings.transaction_monitor_check_interval.name(), "500ms");
            if (txMaxMb > 0) {
                config.put(GraphDatabaseSettings.memory_transaction_max_size.name(), txMaxMb + "m");
            }
            if (txTotalMaxMb > 0) {
                config.put(GraphDatabaseSettings.memory_transaction_global_max_size.name(), txTotalMaxMb + "m");
            }
            config.put(HttpConnector.enabled.name(), "true");
            config.put(HttpConnector.listen_address.name(), host + ":" + httpPort);
            // discovery (GET /) and the Browser's connect form point at this Bolt port, not 7687
            config.put(BoltConnector.advertised_address.name(), host + ":" + port);
            config.put(HttpConnector.advertised_address.name(), host + ":" + httpPort);
            config.put(HttpsConnector.enabled.name(), "false");
            CommunityBootstrapper server = new CommunityBootstrapper();
            int code = server.start(home, config);
            if (code != 0) {
                System.out.println("graphmem-launcher: the server did not start (exit code " + code + ")");
                System.exit(code);
            }
            dbms = server.getDatabaseManagementService();
            shutdown = server::stop;
        } else {
            DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home)
                    .setConfig(BoltConnector.enabled, true)
                    .setConfig(BoltConnector.listen_address, new SocketAddress(host, port))
                    .setConfig(GraphDatabaseSettings.auth_enabled, auth)
                    .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb))
                    .setConfig(GraphDatabaseSettings.udc_enabled, false)
                    .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofSeconds(txTimeoutS))
                    .setConfig(GraphDatabaseSettings.transaction_monitor_check_interval, Duration.ofMillis(500));
            if (txMaxMb > 0) {
                builder.setConfig(GraphDatabaseSettings.memory_transaction_max_size, ByteUnit.mebiBytes(txMaxMb));
            }
            if (txTotalMaxMb > 0) {
                builder.setConfig(
                        GraphDatabaseSettings.memory_transaction_global_max_size, ByteUnit.mebiBytes(txTotalMaxMb));
            }
            dbms = builder.build();
            shutdown = dbms::shutdown;
        }

        CountDownLatch stopped = new CountDownLatch(1);
        if (stopGraceS > 0) {
            Thread reaper = new Thread(() -> reap(dbms, stopGraceS, stopped), "graphmem-reaper");
            reaper.setDaemon(true);
            reaper.start();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("graphmem-launcher: shutting down");
            stopped.countDown();
            shutdown.run();
        }, "graphmem-shutdown"));
        Files.writeString(home.resolve("launcher.pid"), Long.toString(ProcessHandle.current().pid()));
        System.out.println("graphmem-launcher: bolt on " + host + ":" + port
                + (httpPort > 0 ? ", http and Neo4j Browser on " + host + ":" + httpPort : "") + " home " + home);
        stopped.await();
    }

    /** Every 0.5 s: stop the threads of queries terminated more than ``graceS`` ago. */
    private static void reap(DatabaseManagementService dbms, double graceS, CountDownLatch stopped) {
        long graceNanos = (long) (graceS * 1e9);
        try {
            while (!stopped.await(500, TimeUnit.MILLISECONDS)) {
                for (String name : dbms.listDatabases()) {
                    try {
                        reapDatabase(dbms.database(name), graceNanos);
                    } catch (RuntimeException e) {
                        // a database stopping or starting: try again on the next tick
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void reapDatabase(GraphDatabaseService db, long graceNanos) {
        if (!(db instanceof GraphDatabaseAPI api) || !db.isAvailable()) {
            return;
        }
        KernelTransactions transactions = api.getDependencyResolver().resolveDependency(KernelTransactions.class);
        long now = System.nanoTime();
        for (KernelTransactionHandle handle : transactions.activeTransactions()) {
            Optional<TerminationMark> mark = handle.terminationMark();
            Optional<ExecutingQuery> query = handle.executingQuery();
            if (mark.isEmpty() || query.isEmpty() || handle.isClosing() || handle.isCommitting()) {
                continue;
            }
            if (now - mark.get().getTimestampNanos() < graceNanos) {
                continue;
            }
            stopQueryThread(query.get(), mark.get());
        }
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static void stopQueryThread(ExecutingQuery query, TerminationMark mark) {
        long threadId = threadId(query);
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getId() != threadId || !inCypherRuntime(thread.getStackTrace())) {
                continue;
            }
            System.out.println("graphmem-launcher: stopping thread " + thread.getName() + " of query "
                    + query.id() + " (terminated: " + mark.getReason() + ")");
            thread.stop();
        }
    }

    /** Only a thread evaluating Cypher is stopped, never one inside storage, locks or I/O. */
    private static boolean inCypherRuntime(StackTraceElement[] stack) {
        if (stack.length == 0) {
            return false;
        }
        String top = stack[0].getClassName();
        if (top.startsWith("org.neo4j.io.") || top.startsWith("org.neo4j.lock")
                || top.startsWith("org.neo4j.kernel.impl.store") || top.startsWith("org.neo4j.internal.recordstorage")
                || top.startsWith("java.nio") || top.startsWith("sun.nio") || top.startsWith("io.netty")) {
            return false;
        }
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().startsWith("org.neo4j.cypher.internal.runtime")) {
                return true;
            }
        }
        return false;
    }

    private static long threadId(ExecutingQuery query) {
        try {
            Field field = ExecutingQuery.class.getDeclaredField("threadExecutingTheQueryId");
            field.setAccessible(true);
            return field.getLong(query);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1;
        }
    }
}
