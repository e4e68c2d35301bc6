import Foundation
import Hummingbird
import HummingbirdTesting
import QuintetServer
import Testing

/// The playground's module (Web/playground/playground.wasm, built by `make wasm`) must go out
/// as application/wasm: browsers refuse WebAssembly.instantiateStreaming on any other type.
/// Hummingbird's FileMiddleware maps the extension itself (its MediaType table); this pins it.
@Suite("Static files")
struct StaticWasmTests {
    @Test(".wasm files are served as application/wasm, byte for byte")
    func wasmContentType() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-wasm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let web = data.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: web.appendingPathComponent("playground"), withIntermediateDirectories: true)
        // The smallest valid module: the magic number and version 1.
        let module = Data([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00])
        try module.write(to: web.appendingPathComponent("playground/playground.wasm"))
        let database = try QuintetApplication.openDatabase(in: data.appendingPathComponent("db"))
        let router = QuintetApplication.makeRouter(database: database, webDirectory: web)
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/playground/playground.wasm", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/wasm")
                #expect(Data(buffer: response.body) == module)
            }
        }
    }
}
