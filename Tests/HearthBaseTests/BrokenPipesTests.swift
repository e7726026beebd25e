import Glibc
import HearthBase
import Testing

@Suite struct BrokenPipesTests {
    @Test func aWriteToAPipeNobodyReadsFailsWithEPIPEInsteadOfEndingTheProcess() {
        BrokenPipes.ignore()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        let byte: [UInt8] = [0x2A]
        let written = write(fds[1], byte, 1)
        let error = errno
        #expect(written == -1)
        #expect(error == EPIPE)
    }
}
