import AudioCore
import Foundation
import Hummingbird
import HummingbirdTesting
import QuintetServer
import Testing

@Suite("POST /api/tempo")
struct TempoRouteTests {
    /// 12 s of clicks at `bpm`, as WAV bytes.
    static func clickTrack(bpm: Double) -> Data {
        let rate = 22_050.0
        var samples = [Float](repeating: 0, count: Int(12 * rate))
        var t = 0.0
        while t < 12 {
            let start = Int(t * rate)
            for i in 0..<200 where start + i < samples.count {
                samples[start + i] = Float(sin(Double(i) * 0.3) * exp(-Double(i) / 40))
            }
            t += 60 / bpm
        }
        return WAVWriter.encode(PCMBuffer(sampleRate: rate, channelCount: 1, samples: samples), format: .int16)
    }

    @Test("an uploaded file gets its tempo; bad uploads get JSON errors")
    func upload() async throws {
        let (router, data) = try makeTestRouter()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/tempo", method: .post, body: ByteBuffer(bytes: Self.clickTrack(bpm: 100))) { response in
                #expect(response.status == .ok)
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                let bpm = try #require(body?["bpm"] as? Double)
                #expect(abs(bpm - 100) < 1)
                #expect(body?["method"] as? String == "default")
            }
            try await client.execute(uri: "/api/tempo?method=scheirer", method: .post, body: ByteBuffer(bytes: Self.clickTrack(bpm: 100))) { response in
                #expect(response.status == .ok)
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(body?["method"] as? String == "scheirer")
            }
            try await client.execute(uri: "/api/tempo", method: .post, body: ByteBuffer(string: "definitely not audio")) { response in
                #expect(response.status == .unprocessableContent)
                let error = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(error.error.code == "unreadable_audio")
            }
            try await client.execute(uri: "/api/tempo", method: .post) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/tempo?method=guess", method: .post, body: ByteBuffer(string: "x")) { response in
                #expect(response.status == .badRequest)
                let error = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(error.error.message.contains("scheirer"))
            }
        }
    
    }

    @Test("an upload over the limit is refused with 413 and leaves no file")
    func tooLarge() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quintet-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let router = QuintetApplication.makeRouter(database: try QuintetApplication.openDatabase(in: data),
                                                   webDirectory: webDirectory, maxUploadBytes: 50_000)
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/tempo", method: .post, body: ByteBuffer(bytes: Self.clickTrack(bpm: 90))) { response in
                #expect(response.status == .contentTooLarge)
                let error = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(error.error.message.contains("larger than"))
            }
        }
        let uploads = data.appendingPathComponent("uploads")
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads.path).isEmpty)
    }
}
