import HearthBase
import Testing

@Suite struct RedactedURLTests {
    @Test func hidesTheUserInfoOfADatabaseURL() {
        #expect(
            RedactedURL("postgres://user:PASSWORD@db.example.com:5432/hearth").description
                == "postgres://***@db.example.com:5432/hearth"
        )
    }

    @Test func hidesAUserWithoutPasswordToo() {
        #expect(RedactedURL("https://TOKEN@hooks.example.com/x").description == "https://***@hooks.example.com/x")
    }

    @Test func hidesAnAtSignInsideThePassword() {
        #expect(
            RedactedURL("smtp://me%40example.com:p@ss@smtp.example.com:587").description
                == "smtp://***@smtp.example.com:587"
        )
    }

    @Test func hidesSecretQueryValuesAndKeepsTheOthers() {
        #expect(
            RedactedURL("smtps://mail.example.com:465?timeout=5&password=hunter2&verify=false").description
                == "smtps://mail.example.com:465?timeout=5&password=***&verify=false"
        )
        #expect(
            RedactedURL("https://hooks.example.com/a?api_key=K&oobCode=C&Access-Token=T#frag").description
                == "https://hooks.example.com/a?api_key=***&oobCode=***&Access-Token=***#frag"
        )
    }

    @Test func leavesURLsWithoutSecretsAndNonURLsAlone() {
        #expect(RedactedURL("sqlite:/var/lib/hearth/hearth.db").description == "sqlite:/var/lib/hearth/hearth.db")
        #expect(RedactedURL("http://127.0.0.1:9099/path?x=1").description == "http://127.0.0.1:9099/path?x=1")
        #expect(RedactedURL("http://user@").description == "http://***@")
    }
}
