package dev.llmsafe.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmsafe.store.PlanStatus;
import dev.llmsafe.testing.Engine;
import dev.llmsafe.testing.ScratchDatabases;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser (Debian's chromium, headless, driven by Selenium through Debian's
 * chromedriver), on PostgreSQL, MariaDB and SQLite: plans proposed through {@code jdbc:llmsafe:} are
 * listed, the proposer's approval is refused, another approver approves, an applier applies and the
 * rows change in the database, another plan is rejected, a read runs and downloads as CSV; a value
 * holding markup, an event handler, U+202E and a zero-width space is shown, visibly, and runs nothing.
 * Screenshots of the main pages go to target/screenshots.
 */
class ConsoleBrowserTest {

    /** Markup, an event handler, a right-to-left override and a zero-width space, in one value. */
    static final String HOSTILE = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">\u202Egnp.exe\u200Bok";

    @RegisterExtension
    static final ScratchDatabases dbs = new ScratchDatabases();

    @TempDir
    static Path dir;

    static ChromeDriver browser;
    static Path downloads;
    static final Map<Engine, Console> consoles = new EnumMap<>(Engine.class);

    @BeforeAll
    static void openBrowser() throws Exception {
        downloads = Files.createDirectories(dir.resolve("downloads"));
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,1500", "--user-data-dir=" + dir.resolve("profile"));
        options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
                "download.prompt_for_download", false));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new java.io.File("/usr/bin/chromedriver")).build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    static void close() {
        if (browser != null) {
            browser.quit();
        }
        consoles.values().forEach(Console::close);
    }

    private static Console console(Engine engine) throws Exception {
        Console c = new Console(dbs.get(engine), Files.createDirectories(dir.resolve(engine.key())), null);
        consoles.put(engine, c);
        return c;
    }

    /** Clicks and waits for the next page: a form's answer replaces the document. */
    /**
     * Clicks and waits for the next page. An element found while a navigation was still landing belongs to
     * the document being replaced, and chromedriver refuses the click before it reaches the page ("Node with
     * given id does not belong to the document", or a stale element; seen under load in K8): it is found
     * again in the new document, up to three times. Nothing was clicked then, so nothing is sent twice.
     */
    private static void click(By by) {
        for (int attempt = 1; ; attempt++) {
            org.openqa.selenium.WebElement page = browser.findElement(By.tagName("html"));
            try {
                new WebDriverWait(browser, Duration.ofSeconds(15))
                        .until(org.openqa.selenium.support.ui.ExpectedConditions.elementToBeClickable(by)).click();
            } catch (org.openqa.selenium.WebDriverException e) {
                boolean notThere = e instanceof org.openqa.selenium.StaleElementReferenceException
                        || String.valueOf(e.getMessage()).contains("does not belong to the document");
                if (!notThere || attempt == 3) {
                    throw e;
                }
                continue;
            }
            new WebDriverWait(browser, Duration.ofSeconds(15))
                    .until(org.openqa.selenium.support.ui.ExpectedConditions.stalenessOf(page));
            return;
        }
    }

    private static void open(Console c, String path) {
        browser.get(c.base() + path);
    }

    private static void signIn(Console c, String name) {
        open(c, "/signin");
        browser.findElement(By.name("name")).sendKeys(name);
        browser.findElement(By.name("password")).sendKeys(Console.PASSWORD);
        click(By.cssSelector("form.signin button"));
        assertThat(browser.findElement(By.cssSelector("header .who")).getText()).startsWith(name + " (");
    }

    private static void signOut() {
        click(By.cssSelector("header form button"));
        assertThat(browser.getCurrentUrl()).endsWith("/signin");
    }

    private static String main() {
        return browser.findElement(By.tagName("main")).getText();
    }

    private static void screenshot(Engine engine, String name) throws Exception {
        Path out = Path.of("target", "screenshots");
        Files.createDirectories(out);
        Files.write(out.resolve(engine.key() + "-" + name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    /** Opens the plan, follows the action's link to its confirmation and confirms; returns the outcome's text. */
    private static String act(Console c, UUID id, String action, String reason) {
        open(c, "/plans/" + id);
        click(By.partialLinkText(action));
        if (reason != null) {
            browser.findElement(By.name("reason")).sendKeys(reason);
        }
        click(By.cssSelector("main form button"));
        return main();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void K8_aPersonReadsApprovesAppliesRejectsAndReadsInTheBrowser(Engine engine) throws Exception {
        Console c = console(engine);
        UUID shipped = c.propose("carol", "UPDATE orders SET status = 'shipped', note = '" + HOSTILE + "' WHERE id IN (1, 2)");
        UUID rejected = c.propose("assistant", "DELETE FROM orders WHERE id = 4");

        signIn(c, "carol");
        assertThat(main()).contains("proposed").contains(shipped.toString().substring(0, 8)).contains("carol");
        screenshot(engine, "plans");
        click(By.partialLinkText(shipped.toString().substring(0, 8)));
        String page = main();
        // Impact first, then the rows; the hostile value as text, its invisible characters as visible marks.
        assertThat(page.indexOf("A shipped order is invoiced the same night.")).isLessThan(page.indexOf("UPDATE orders"));
        assertThat(page).contains("<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">")
                .contains("\\u{202E}gnp.exe\\u{200B}ok").doesNotContain("\u202E").doesNotContain("\u200B")
                .contains("'packed'").contains("'shipped'");
        assertThat(browser.findElements(By.cssSelector("main img, main script"))).isEmpty();
        assertThat(((JavascriptExecutor) browser).executeScript("return typeof window.pwned")).isEqualTo("undefined");
        screenshot(engine, "plan");
        // The proposer signed in as an approver still cannot approve its own plan.
        assertThat(act(c, shipped, "Approve", null)).contains("SELF_APPROVAL").contains("cannot also approve");
        assertThat(c.deployment.store().load(shipped).status()).isEqualTo(PlanStatus.PROPOSED);
        signOut();

        signIn(c, "alice");
        assertThat(act(c, shipped, "Approve", null)).contains("is approved by alice");
        assertThat(act(c, rejected, "Reject", "not this week")).contains("is rejected");
        assertThat(c.deployment.store().load(rejected).status()).isEqualTo(PlanStatus.REJECTED);
        signOut();

        signIn(c, "bob");
        open(c, "/plans/" + shipped);
        click(By.partialLinkText("Apply"));
        assertThat(main()).contains("Apply plan " + shipped + "?").contains("A shipped order is invoiced");
        screenshot(engine, "confirm-apply");
        click(By.cssSelector("main form button"));
        assertThat(main()).contains("is applied: 2 rows were changed, exactly as its card showed");
        screenshot(engine, "applied");
        assertThat(c.db.snapshot("orders")).containsExactly("[1, shipped, " + HOSTILE + "]", "[2, shipped, " + HOSTILE + "]",
                "[3, packed, null]", "[4, packed, null]");
        open(c, "/plans/" + shipped);
        assertThat(main()).contains("applied").contains("alice").contains("bob");

        open(c, "/read");
        browser.findElement(By.name("sql")).sendKeys("SELECT id, status FROM orders WHERE id <= 3 ORDER BY id");
        click(By.cssSelector("button[value=run]"));
        assertThat(main()).contains("Cost estimate:").contains("3 rows");
        assertThat(browser.findElements(By.cssSelector("table.result tbody tr"))).hasSize(3);
        screenshot(engine, "read");
        Path csv = downloads.resolve("read.csv");
        Files.deleteIfExists(csv);
        browser.findElement(By.cssSelector("button[value=csv]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(b -> Files.exists(csv));
        assertThat(Files.readString(csv, StandardCharsets.UTF_8)).isEqualTo("id,status\r\n1,shipped\r\n2,shipped\r\n3,packed\r\n");
        signOut();
    }
}
