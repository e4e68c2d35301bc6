import Testing
import Physics2D
@testable import Stage

/// Reads a draw list back from its bytes, independently of the writer.
struct DrawListReader {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    mutating func u32() -> UInt32 {
        let v = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        offset += 4
        return v
    }
    mutating func f32() -> Float { Float(bitPattern: u32()) }
    mutating func matrix() -> [Float] { (0..<6).map { _ in f32() } }
    mutating func text(_ n: Int) -> String {
        let s = String(decoding: bytes[offset..<offset + n], as: UTF8.self)
        let padded = (n + 3) / 4 * 4
        #expect(bytes[offset + n..<offset + padded].allSatisfy { $0 == 0 })
        offset += padded
        return s
    }
}

@Suite struct DrawListTests {
    func floats(_ m: Matrix) -> [Float] { [Float(m.a), Float(m.b), Float(m.c), Float(m.d), Float(m.tx), Float(m.ty)] }

    @Test func stageRendersEveryVisibleObjectInPaintingOrder() {
        let stage = Stage(width: 1024, height: 768, color: Color.rgb(0x336699))
        let layer = Sprite(); layer.x = 10; layer.y = 20; layer.alpha = 0.5; layer.scaleX = 2
        stage.addChild(layer)
        let quad = Quad(width: 30, height: 40, color: 0xFF00_00FF)
        quad.setColor(0x00FF_00FF, ofVertex: 1); quad.setColor(0x0000_FFFF, ofVertex: 2); quad.setColor(0x1234_5678, ofVertex: 3)
        quad.x = 5; quad.alpha = 0.5
        layer.addChild(quad)
        let hidden = Quad(width: 1, height: 1); hidden.visible = false; layer.addChild(hidden)
        let clear = Quad(width: 1, height: 1); clear.alpha = 0; layer.addChild(clear)
        let image = Image(texture: TextureRegion(atlas: 3, region: 17, width: 64, height: 32))
        image.tint = 0xFFEE_DDCC; image.rotation = (PortableMath.pi / 2); image.y = 100
        stage.addChild(image)
        let text = TextField(width: 200, height: 50, text: "Héllo", fontSize: 24, color: 0x0102_03FF, alignment: .right)
        text.x = 300; text.y = 400
        stage.addChild(text)
        // A hidden container hides its children too.
        let hiddenGroup = Sprite(); hiddenGroup.visible = false; hiddenGroup.addChild(Quad(width: 5, height: 5))
        stage.addChild(hiddenGroup)

        var list = DrawList()
        stage.render(into: &list)
        var r = DrawListReader(list.bytes)
        #expect(r.u32() == 0x314C_4451)   // "QDL1"
        #expect(r.u32() == 4)
        #expect(r.u32() == UInt32(list.bytes.count))
        #expect(list.bytes.prefix(4) == [0x51, 0x44, 0x4C, 0x31])   // 'Q' 'D' 'L' '1' in memory

        // 1. The background quad over the whole stage.
        #expect(r.u32() == 1)
        #expect(r.matrix() == [1, 0, 0, 1, 0, 0])
        #expect(r.f32() == 1)
        #expect(r.f32() == 1024 && r.f32() == 768)
        #expect((0..<4).map { _ in r.u32() } == [0x3366_99FF, 0x3366_99FF, 0x3366_99FF, 0x3366_99FF])

        // 2. The quad: its transform through the layer, alpha 0.5 × 0.5.
        #expect(r.u32() == 1)
        #expect(r.matrix() == [2, 0, 0, 1, 20, 20])   // layer (scale 2, at 10,20) ∘ quad (at 5,0)
        #expect(r.f32() == 0.25)
        #expect(r.f32() == 30 && r.f32() == 40)
        #expect((0..<4).map { _ in r.u32() } == [0xFF00_00FF, 0x00FF_00FF, 0x0000_FFFF, 0x1234_5678])

        // 3. The image, turned a quarter.
        #expect(r.u32() == 2)
        #expect(r.matrix() == floats(image.transformationMatrix))
        #expect(r.f32() == 1)
        #expect(r.f32() == 64 && r.f32() == 32)
        #expect(r.u32() == 3 && r.u32() == 17 && r.u32() == 0xFFEE_DDCC)

        // 4. The text: 6 bytes of UTF-8, padded to 8.
        #expect(r.u32() == 3)
        #expect(r.matrix() == [1, 0, 0, 1, 300, 400])
        #expect(r.f32() == 1)
        #expect(r.f32() == 200 && r.f32() == 50 && r.f32() == 24)
        #expect(r.u32() == 0x0102_03FF && r.u32() == 2)
        #expect(r.u32() == 6)
        #expect(r.text(6) == "Héllo")
        #expect(r.offset == list.bytes.count)
    }

    @Test func transparentBackgroundIsNotWritten() {
        let stage = Stage(width: 10, height: 10, color: 0x1122_3300)
        var list = DrawList()
        stage.render(into: &list)
        #expect(list.commandCount == 0 && list.byteCount == 12)
        stage.addChild(TextField(width: 1, height: 1, text: "abcd"))
        stage.render(into: &list)
        var r = DrawListReader(list.bytes)
        #expect(r.u32() == DrawList.magic && r.u32() == 1 && r.u32() == 12 + 4 * (1 + 6 + 1 + 3 + 3) + 4)
    }

    @Test func theBufferIsReusedBetweenFrames() {
        let stage = Stage(width: 100, height: 100)
        for i in 0..<50 {
            let q = Quad(width: 1, height: 1); q.x = Double(i); stage.addChild(q)
        }
        var list = DrawList(reservingWords: 16)
        stage.render(into: &list)
        let first = list.bytes
        let capacity = list.storage.capacity
        for _ in 0..<10 { stage.render(into: &list) }
        #expect(list.bytes == first)
        #expect(list.storage.capacity == capacity)
        #expect(list.commandCount == 51)
        var out: [UInt8] = [1, 2, 3]
        list.copyBytes(into: &out)
        #expect(out == first)
    }
}
