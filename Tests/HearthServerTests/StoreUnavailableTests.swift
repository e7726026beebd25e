import HearthBase
import HearthStore
import Testing

@testable import HearthHTTP
@testable import HearthServer

/// While the store cannot write, requests are answered 503 with `Retry-After`: in the Google
/// envelope for JSON routes, as an HTML page for the hosted pages.
@Suite struct StoreUnavailableTests {
    @Test("a store that cannot write is a 503 UNAVAILABLE with Retry-After; other store failures stay 500")
    func storeFailuresAreAnswered() throws {
        for kind in [StoreError.Kind.io, .busy, .closed] {
            let response = StoreError(kind, "disk full").response()
            let json = try JSONValue.parse(response.body)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers["Retry-After"] == "5")
            #expect(json["error"]?["status"]?.stringValue == "UNAVAILABLE")
            #expect(json["error"]?["code"] == .int(503))
        }
        #expect(StoreError(.corruptValue, "bad row").response().status == .internalServerError)
        #expect(StoreError(.io, "disk full").response().headers["Retry-After"] == "5")
    }

    @Test("the hosted action page answers a store that cannot write with an HTML page, 503 and Retry-After")
    func theActionPageIsAnHTMLPage() {
        let request = Request(
            method: .get,
            target: "/__/auth/action?mode=resetPassword&oobCode=x",
            headers: HTTPHeaders(),
            body: []
        )
        let response = HearthApplication.errorPage(request, .unavailable)
        let html = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers["Retry-After"] == "5")
        #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(html.contains("Wait a moment"))
    }
}
