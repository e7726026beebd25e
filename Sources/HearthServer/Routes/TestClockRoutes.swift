import HearthBase
import HearthHTTP

extension HearthApplication {
    /// `GET /emulator/v1/clock` answers the server's time; `POST /emulator/v1/clock` with
    /// `{"advanceSeconds": N}` moves it forward. Only with `hearth serve --test-clock`.
    func addTestClockRoutes(to router: inout Router, clock: OffsetClock) {
        router.get("/emulator/v1/clock") { _ in
            .json(
                .object([
                    "nowMillis": .string(String(clock.nowMilliseconds())),
                    "offsetMillis": .string(String(clock.offsetMilliseconds)),
                ])
            )
        }
        router.post("/emulator/v1/clock") { [self] request in
            guard let seconds = try RequestFields(jsonBodyOf: request).int64("advanceSeconds"), seconds >= 0,
                seconds <= 100 * 365 * 86_400
            else {
                throw GoogleAPIError.invalidArgument("advanceSeconds must be a whole number of seconds, 0 or more")
            }
            clock.advance(milliseconds: seconds * 1_000)
            log.info("test clock advanced", ["seconds": .string(String(seconds))])
            return .json(
                .object([
                    "nowMillis": .string(String(clock.nowMilliseconds())),
                    "offsetMillis": .string(String(clock.offsetMilliseconds)),
                ])
            )
        }
    }
}
