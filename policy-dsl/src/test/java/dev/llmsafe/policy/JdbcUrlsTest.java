package dev.llmsafe.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** J9: a URL is shown as where the database is, never with what logs in to it, in every shape the drivers read. */
class JdbcUrlsTest {

    @Test
    void J9_aUrlIsShownWithoutAnyCredentialInEveryShapeTheDriversRead() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("jdbc:postgresql://db:5432/app?user=u&password=s3cret&sslpassword=s3cret&sslmode=require",
                "jdbc:postgresql://db:5432/app");
        cases.put("jdbc:postgresql://db/app?sslkey=/home/u/s3cret.pk8&sslfactoryarg=s3cret", "jdbc:postgresql://db/app");
        cases.put("jdbc:postgresql://h1:5432,h2:5433/app?password=s3cret", "jdbc:postgresql://h1:5432,h2:5433/app");
        cases.put("jdbc:mysql://u:s3cret@db:3306/app", "jdbc:mysql://db:3306/app");
        cases.put("jdbc:mysql://u%40x:s3cret@db/app?password1=s3cret&trustCertificateKeyStorePassword=s3cret",
                "jdbc:mysql://db/app");
        cases.put("jdbc:mysql://u:s3cret@h1:3306,u:s3cret@h2:3307/app", "jdbc:mysql://h1:3306,h2:3307/app");
        cases.put("jdbc:mysql://[u:s3cret@h1:3306,h2]/app", "jdbc:mysql://[h1:3306,h2]/app");
        cases.put("jdbc:mysql://(host=db,port=3306,user=u,password=s3cret)/app", "jdbc:mysql://db:3306/app");
        cases.put("jdbc:mysql://address=(host=db)(port=3306)(password=s3cret)(user=u)/app", "jdbc:mysql://db:3306/app");
        cases.put("jdbc:mysql:loadbalance://u:s3cret@h1,h2/app", "jdbc:mysql:loadbalance://h1,h2/app");
        cases.put("jdbc:mariadb://[::1]:3306/app?password=s3cret", "jdbc:mariadb://[::1]:3306/app");
        cases.put("jdbc:sqlite:/var/app/app.db?password=s3cret&hexkey=5333435245", "jdbc:sqlite:/var/app/app.db");
        cases.put("jdbc:sqlite:file:/var/app/app.db?mode=ro&key=s3cret", "jdbc:sqlite:file:/var/app/app.db");
        cases.put("jdbc:h2:mem:app;PASSWORD=s3cret", "jdbc:h2:mem:app");
        cases.put("postgresql://u:s3cret@db/app", "postgresql://db/app");
        cases.put("u:s3cret@db", "db");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            assertThat(JdbcUrls.redact(c.getKey())).as(c.getKey()).isEqualTo(c.getValue()).doesNotContain("s3cret");
        }
        assertThat(JdbcUrls.redact(null)).isNull();
    }

    @Test
    void J9_connectionSettingsNeverShowTheirCredential() {
        ConnectionSettings s = new ConnectionSettings("jdbc:mysql://u:s3cret@db/app?password=s3cret",
                Optional.of("llm_plan"), Optional.of(Secret.of("s3cret")));
        assertThat(s.describe()).isEqualTo("llm_plan at jdbc:mysql://db/app");
        assertThat(s.toString()).doesNotContain("s3cret");
        assertThat(LlmSafeConfig.builder().connection(s).policy(Policy.define(p -> p.table("t"))).build().toString())
                .doesNotContain("s3cret");
        assertThatThrownBy(() -> ConnectionSettings.of("mysql://u:s3cret@db/app?password=s3cret"))
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> ConnectionSettings.of("jdbc:llmsafe:mysql://u:s3cret@db/app"))
                .hasMessageNotContaining("s3cret");
    }
}
