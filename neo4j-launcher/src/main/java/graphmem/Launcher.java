package graphmem;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.io.ByteUnit;

/**
 * Embedded Neo4j Community with the Bolt connector, for graphmem's local runtime.
 *
 * Usage: java -Xmx.. -cp lib/*:classes graphmem.Launcher HOME HOST PORT PAGECACHE_MB AUTH(true|false)
 * Writes HOME/launcher.pid once Bolt is listening; a shutdown hook (SIGTERM) stops the DBMS cleanly.
 */
public final class Launcher {
    private Launcher() {}

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath();
        String host = args[1];
        int port = Integer.parseInt(args[2]);
        long pageCacheMb = Long.parseLong(args[3]);
        boolean auth = Boolean.parseBoolean(args[4]);
        Files.createDirectories(home);

        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(host, port))
                .setConfig(GraphDatabaseSettings.auth_enabled, auth)
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb))
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofMinutes(10))
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("graphmem-launcher: shutting down");
            dbms.shutdown();
            stopped.countDown();
        }, "graphmem-shutdown"));
        Files.writeString(home.resolve("launcher.pid"), Long.toString(ProcessHandle.current().pid()));
        System.out.println("graphmem-launcher: bolt on " + host + ":" + port + " home " + home);
        stopped.await();
    }
}
