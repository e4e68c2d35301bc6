import AudioCore
import Foundation
import Hummingbird
import HummingbirdTesting
import QuintetServer
import Testing

@Suite("POST /api/library/tags")
struct TagRouteTests {
    @Test("an uploaded file's container and stream come back; other bytes get 422")
    func upload() async throws {
        let (router, data) = try makeTestRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        let wav = WAVWriter.encode(PCMBuffer(sampleRate: 22_050, channelCount: 2, samples: [Float](repeating: 0.1, count: 44_100)), format: .int16)
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/library/tags", method: .post, body: ByteBuffer(bytes: wav)) { response in
                #expect(response.status == .ok)
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                let stream = try #require(body?["stream"] as? [String: Any])
                #expect(body?["format"] as? String == "wav" && stream["codec"] as? String == "pcm")
                #expect(stream["channels"] as? Int == 2 && abs((stream["duration"] as? Double ?? 0) - 1) < 1e-9)
            }
            try await client.execute(uri: "/api/library/tags", method: .post, body: ByteBuffer(string: "hello")) { response in
                #expect(response.status == .unprocessableContent)
                let error = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(error.error.code == "unreadable_tags" && error.error.message.contains("not a supported"))
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("uploads").path).isEmpty)
    }
}
