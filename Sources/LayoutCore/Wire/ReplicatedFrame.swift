import Dispatch

/// A frame as the owner of a room sends it to the relays: the two bare forms exactly as its
/// own clients get them, and the membership parts when the membership version changed (or
/// always, in the copy kept in Redis for joiners). From these a relay rebuilds all four forms
/// of `PublishedFrame` byte for byte: each "with ids" form is its bare form with the
/// membership part put in after the head (`FrameEncoder`, `BinaryFrameEncoder`). The text form
/// is empty (`hasText` false) unless a v1 client is in the room on some server: the owner
/// writes it only then (`TextFrame`).
package struct ReplicatedFrame: Equatable, Sendable {
    package struct Membership: Equatable, Sendable {
        package let version: Int
        /// `,"ids":[…],"owners":[…]` (v1) and the v2 membership section.
        let text: [UInt8]
        let binary: [UInt8]

        package init(version: Int, text: [UInt8], binary: [UInt8]) {
            self.version = version
            self.text = text
            self.binary = binary
        }

        func write(into writer: inout WireWriter) {
            writer.int(version)
            writer.data(text)
            writer.data(binary)
        }

        /// Alone (the `membership` field of `ClusterKeys.mirror`).
        package var encoded: [UInt8] {
            var writer = WireWriter(capacity: text.count + binary.count + 16)
            write(into: &writer)
            return writer.bytes
        }
    }

    /// The owner's frame counter for the room: a relay keeps only frames above the last it had.
    package let serial: Int
    package let version: Int
    /// Nanoseconds from this frame to the next one due (0: the room stopped stepping).
    package let nextDueIn: UInt64
    let text: [UInt8]
    /// Bytes of `text` before its positions (where the v1 membership part goes).
    let textHead: Int
    let binary: [UInt8]
    package let membership: Membership?

    package init(serial: Int, version: Int, nextDueIn: UInt64, text: [UInt8], textHead: Int, binary: [UInt8], membership: Membership?) {
        self.serial = serial
        self.version = version
        self.nextDueIn = nextDueIn
        self.text = text
        self.textHead = textHead
        self.binary = binary
        self.membership = membership
    }

    /// Whether the frame carries its text form (a v1 frame is never empty).
    package var hasText: Bool { !text.isEmpty }

    /// The same frame carrying `membership` (or none).
    package func with(membership: Membership?) -> ReplicatedFrame {
        ReplicatedFrame(serial: serial, version: version, nextDueIn: nextDueIn, text: text, textHead: textHead,
                        binary: binary, membership: membership)
    }

    /// The four forms of this frame, given the membership of its version.
    package func published(serial localSerial: Int, membership: Membership, now: UInt64) -> PublishedFrame? {
        guard membership.version == version, textHead <= text.count,
              binary.count >= BinaryFrameEncoder.headSize else { return nil }
        var flagged = Array(binary[..<BinaryFrameEncoder.headSize])
        flagged[1] |= BinaryFrameEncoder.flagMembership
        let textFrame = hasText ? TextFrame(FrameEncoder.Frame(
            version: version,
            withIDs: OutgoingMessage(parts: [Array(text[..<textHead]), membership.text, Array(text[textHead...])]),
            withoutIDs: OutgoingMessage(text))) : TextFrame.absent
        let binaryFrame = FrameEncoder.Frame(
            version: version,
            withIDs: OutgoingMessage(parts: [flagged, membership.binary, Array(binary[BinaryFrameEncoder.headSize...])],
                                     binary: true),
            withoutIDs: OutgoingMessage(binary, binary: true))
        return PublishedFrame(serial: localSerial, text: textFrame, binary: binaryFrame, publishedAt: now,
                              nextDue: nextDueIn == 0 ? nil : now + nextDueIn)
    }

    func write(into writer: inout WireWriter) {
        writer.int(serial)
        writer.int(version)
        writer.u64(nextDueIn)
        writer.data(text)
        writer.int(textHead)
        writer.data(binary)
        writer.bool(membership != nil)
        membership?.write(into: &writer)
    }
}

// Decoding, in extensions so the structs keep their memberwise initialisers.
extension ReplicatedFrame.Membership {
    package init(from reader: inout WireReader) throws(WireMalformed) {
        self.init(version: try WireBounds.counter(try reader.int(), "a membership version"),
                  text: try reader.data(), binary: try reader.data())
    }

    package init(decoding bytes: [UInt8]) throws(WireMalformed) {
        var reader = WireReader(bytes)
        try self.init(from: &reader)
        try reader.finish()
    }
}

extension ReplicatedFrame {
    /// Within `WireBounds`: a serial and a version that are counters (a server taking the room
    /// over numbers on from them), the next frame due within a minute.
    package init(from reader: inout WireReader) throws(WireMalformed) {
        self.init(serial: try WireBounds.counter(try reader.int(), "a frame's serial"),
                  version: try WireBounds.counter(try reader.int(), "a frame's version"),
                  nextDueIn: try reader.u64(),
                  text: try reader.data(), textHead: try reader.int(), binary: try reader.data(),
                  membership: try reader.bool() ? try Membership(from: &reader) : nil)
        guard nextDueIn <= WireBounds.nextDueIn else { throw WireMalformed("a frame's next one due in \(nextDueIn) ns") }
        guard (0...text.count).contains(textHead) else { throw WireMalformed("a frame's head is longer than the frame") }
        guard binary.count >= BinaryFrameEncoder.headSize else { throw WireMalformed("a binary frame shorter than its head") }
    }
}
