import Foundation
import Hummingbird
import Tempo

/// `POST /api/tempo`: the tempo of an uploaded audio file.
///
/// The body is the audio file itself (any format ffmpeg reads; `Content-Type` is not
/// trusted), at most `maxUploadBytes`. `?method=scheirer` selects the reference method.
/// The upload is streamed to a file in the data folder's `uploads/`, analysed off the
/// event loop (at most one analysis per core at a time; the others wait), and removed.
public enum TempoRoutes {
    /// Largest accepted upload by default: 200 MiB, about 20 minutes of CD-quality WAV.
    public static let maxUploadBytes = 200 * 1_024 * 1_024

    struct Answer: ResponseEncodable {
        let bpm: Double?
        let confidence: Double
        let candidates: [TempoEstimate.Candidate]
        let method: String
        let seconds: Double

        enum CodingKeys: String, CodingKey { case bpm, confidence, candidates, method, seconds }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(bpm, forKey: .bpm) // null for "no tempo"
            try c.encode(confidence, forKey: .confidence)
            try c.encode(candidates, forKey: .candidates)
            try c.encode(method, forKey: .method)
            try c.encode(seconds, forKey: .seconds)
        }
    }

    static func add(to router: Router<QuintetRequestContext>, uploads: URL, maxUploadBytes: Int = maxUploadBytes,
                    limiter: WorkLimiter) {
        router.post("api/tempo") { request, _ -> Answer in
            let methodName = request.uri.queryParameters.get("method") ?? TempoMethod.default.rawValue
            guard let method = TempoMethod(rawValue: methodName) else {
                throw APIError(.badRequest, code: "invalid_input",
                               message: "method must be one of \(TempoMethod.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let file = try await Upload.save(request.body, limit: maxUploadBytes, in: uploads)
            defer { Upload.remove(file) }
            let start = DispatchTime.now().uptimeNanoseconds
            let estimate: TempoEstimate
            do {
                estimate = try await limiter.run { try TempoAnalyzer(method: method).estimate(fileAt: file) }
            } catch let error as TempoError {
                throw APIError(.unprocessableContent, code: "unreadable_audio", message: error.description)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return Answer(bpm: estimate.bpm, confidence: estimate.confidence, candidates: estimate.candidates,
                          method: method.rawValue, seconds: seconds)
        }
    }
}
