import Foundation
import Hummingbird
import HummingbirdTesting
import Lumen
import Testing
@testable import LumenServer

/// The service's operations as clients see them: format negotiation, the shrink-on-load
/// quality against Pillow, the headers and counters every answer carries, and the render
/// cache switch (the rest of ImageServiceTests is in ImageServiceTests.swift).
extension ImageServiceTests {
    /// PSNR (dB, 8-bit RGB) of an encoded image against Pillow's Lanczos thumbnails of
    /// `source` at its size: from the full-size decode, and from Pillow's `draft` decode at
    /// the smallest DCT scale not below it (thumbor's way).
    static func pillowDistances(_ bytes: ByteBuffer, source: URL) async throws -> (full: Double, draft: Double) {
        let file = ImageServiceTests.temporaryFile("lumen-serve", "")
        try Data(buffer: bytes).write(to: file)
        let script = """
        import sys, numpy as np
        from PIL import Image
        out = Image.open(sys.argv[1]).convert('RGB')
        full = Image.open(sys.argv[2]).convert('RGB').resize(out.size, Image.LANCZOS)
        draft = Image.open(sys.argv[2]); draft.draft('RGB', out.size)
        draft = draft.convert('RGB').resize(out.size, Image.LANCZOS)
        def psnr(b):
            mse = ((np.asarray(out, float) - np.asarray(b, float)) ** 2).mean()
            return 99.0 if mse == 0 else 10 * np.log10(255 ** 2 / mse)
        print(psnr(full), psnr(draft))
        """
        let text = try await python(["-c", script, file.path, source.path])
        let values = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard values.count == 2 else { throw ServiceError.request(status: 0, message: "Pillow could not compare: \(text)") }
        return (values[0], values[1])
    }

    /// A JPEG is decoded at the smallest DCT scale not below the output, as imgproxy and
    /// thumbor do: a 300-pixel thumbnail of the 640×400 photo is close to Pillow's full-size
    /// Lanczos (41.8 dB) and closer still to thumbor's draft-then-Lanczos (46.3 dB; with
    /// vipsthumbnail's margin of 2 instead, 40.9).
    @Test func thumbnailsAreDecodedAtTheDCTScaleThumborUses() async throws {
        let service = try Self.service()
        try await Self.app(service).test(.live) { client in
            try await client.execute(uri: Self.signed("/rs:fit:300:300/plain/photos/2024/photo.jpg@png"), method: .get) { response in
                #expect(response.status == .ok)
                let (full, draft) = try await Self.pillowDistances(response.body, source: Self.repository.appendingPathComponent("testdata/photo.jpg"))
                #expect(full >= 40 && draft >= 44, "\(full) dB from Pillow's full-size Lanczos, \(draft) dB from its draft")
            }
        }
    }

    /// `Accept` read with its q-values: WebP and AVIF only when named (AVIF only when
    /// preferred), `q=0` refuses a type, the source's format when the client takes it, else
    /// JPEG or PNG, whichever it takes.
    @Test func acceptIsReadWithItsQualities() throws {
        let service = try Self.service(), preferringAVIF = try Self.service { $0.preferAVIF = true }
        let cases: [(String, ImageFileFormat?, ImageFileFormat)] = [
            ("", .jpeg, .jpeg), ("*/*", .png, .png), ("image/avif,image/webp,*/*", .jpeg, .webp),
            ("image/webp;q=0, image/jpeg", .png, .jpeg), ("image/png", .jpeg, .png), ("image/jpeg;q=0, image/png", .jpeg, .png),
            ("image/*", .tiff, .jpeg), ("text/html", .png, .jpeg), ("image/PNG; q=0.5", nil, .png),
        ]
        for (accept, source, expected) in cases {
            #expect(service.negotiate(accept: accept, source: source) == expected, "\(accept) for \(String(describing: source))")
        }
        #expect(service.negotiate(accept: "image/avif,image/webp,*/*", source: .jpeg) == .webp)
        #expect(preferringAVIF.negotiate(accept: "image/avif,image/webp,*/*", source: .jpeg) == .avif)
        #expect(preferringAVIF.negotiate(accept: "image/avif;q=0,image/webp", source: .jpeg) == .webp)
    }

    /// What every answer carries and what the service counts: a request id of its own (also
    /// on refusals), `Cache-Control` from the configuration, output-cache hits and misses,
    /// bytes sent; an output over `maxOutputPixels` is 422; an inline chain that reads a file
    /// is refused even where inline chains are allowed; `/ready` answers 200 with no queue
    /// configured and 503 once shutdown has begun.
    @Test func answersCarryTheirHeadersAndAreCounted() async throws {
        let service = try Self.service {
            $0.cacheControl = "public, max-age=60"; $0.maxOutputPixels = 50_000; $0.allowInlineChains = true; $0.maxQueuedRenders = 0
        }
        try await Self.app(service).test(.live) { client in
            var ids: [String] = []
            for _ in 0..<2 {
                try await client.execute(uri: Self.signed("/w:100/plain/photos/2024/photo.jpg"), method: .get) { response in
                    #expect(response.status == .ok && response.headers[.cacheControl] == "public, max-age=60")
                    ids.append(response.headers[ImageService.requestIDField] ?? "")
                }
            }
            try await client.execute(uri: Self.signed("/plain/photos/2024/photo.jpg"), method: .get) { response in
                #expect(response.status == .unprocessableContent, "640×400 is more than 50,000 pixels: \(String(buffer: response.body))")
                ids.append(response.headers[ImageService.requestIDField] ?? "")
            }
            #expect(Set(ids).count == 3 && !ids.contains(""), "each answer has its own id: \(ids)")
            let reads = Base64URL.encode(Array("logo = load(\"logo.png\")\nsourceOver image=logo background=input".utf8))
            try await client.execute(uri: Self.signed("/chain:\(reads)/plain/photos/2024/photo.jpg"), method: .get) { response in
                #expect(response.status == .badRequest, "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("lumen_output_cache_hits_total 1\n") && text.contains("lumen_output_cache_misses_total 3\n"), "\(text)")
                #expect(text.contains("lumen_render_queue_length 0") && !text.contains("lumen_response_bytes_total 0\n"))
            }
            try await client.execute(uri: "/ready", method: .get) { #expect($0.status == .ok, "no queue is not a full queue") }
            service.beginShutdown()
            try await client.execute(uri: "/ready", method: .get) { #expect($0.status == .serviceUnavailable) }
        }
    }

    /// `renderCache` off: two thumbnails of one photo both decode it, and the render cache
    /// holds nothing after them; on (the default), it holds the decoded photo.
    @Test func theRenderCacheCanBeTurnedOff() async throws {
        for keeps in [false, true] {
            let service = try Self.service { $0.renderCache = keeps }
            try await Self.app(service).test(.live) { client in
                for width in [100, 120] {
                    try await client.execute(uri: Self.signed("/w:\(width)/plain/photos/2024/photo.jpg"), method: .get) { #expect($0.status == .ok) }
                }
                try await client.execute(uri: "/metrics", method: .get) { response in
                    let empty = String(buffer: response.body).contains("lumen_render_cache_bytes 0.0\n")
                    #expect(empty == !keeps, "render cache \(keeps ? "on" : "off"): \(String(buffer: response.body).split(separator: "\n").filter { $0.hasPrefix("lumen_render_cache") })")
                }
            }
        }
    }

    /// Where a fill's crop lands, for each gravity: pictures (made by Pillow) of flat grey with a
    /// red and blue checkerboard in one third, cut to 100×100 without scaling, and the
    /// coloured pixels of each answer counted by Pillow. The attention crop and the matching
    /// edge find the whole board; the opposite edge and the centre none of it.
    @Test func eachGravityPlacesTheCrop() async throws {
        let service = try Self.service()
        let root = try #require(service.configuration.roots["photos"])
        let make = """
        import sys
        from PIL import Image
        def picture(size, box):
            im = Image.new('RGB', size, (128, 128, 128))
            for y in range(box[1], box[3]):
                for x in range(box[0], box[2]):
                    im.putpixel((x, y), (255, 0, 0) if (x // 7 + y // 7) % 2 else (0, 0, 255))
            return im
        picture((300, 100), (200, 0, 300, 100)).save(sys.argv[1] + '/wide.png')
        picture((100, 300), (0, 0, 100, 100)).save(sys.argv[1] + '/tall.png')
        """
        _ = try await Self.python(["-c", make, root])
        let count = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1]).convert('RGB')\nprint(im.size[0], im.size[1], sum(1 for p in im.getdata() if len(set(p)) > 1))"
        let cases: [(String, String, Int)] = [
            ("wide", "sm", 10_000), ("wide", "ea", 10_000), ("wide", "noea", 10_000), ("wide", "we", 0), ("wide", "ce", 0),
            ("wide", "fp:0.75:0.5", 7_500), ("tall", "no", 10_000), ("tall", "nowe", 10_000), ("tall", "so", 0), ("tall", "sm", 10_000),
            ("tall", "fp:0.5:0.25", 7_500),
        ]
        try await Self.app(service).test(.live) { client in
            for (picture, gravity, expected) in cases {
                try await client.execute(uri: Self.signed("/rs:fill:100:100/g:\(gravity)/plain/photos/\(picture).png@png"), method: .get) { response in
                    #expect(response.status == .ok, "\(picture) g:\(gravity): \(String(buffer: response.body))")
                    let file = ImageServiceTests.temporaryFile("gravity", ".png")
                    try Data(buffer: response.body).write(to: file)
                    defer { try? FileManager.default.removeItem(at: file) }
                    let text = try await Self.python(["-c", count, file.path]).trimmingCharacters(in: .whitespacesAndNewlines)
                    #expect(text == "100 100 \(expected)", "\(picture) g:\(gravity): width, height and coloured pixels")
                }
            }
            for bad in ["fp:1.5:0", "fp:0.5", "no:10:20", "up"] {
                try await client.execute(uri: Self.signed("/rs:fill:100:100/g:\(bad)/plain/photos/wide.png"), method: .get) { response in
                    #expect(response.status == .badRequest, "g:\(bad)")
                }
            }
        }
    }
}
