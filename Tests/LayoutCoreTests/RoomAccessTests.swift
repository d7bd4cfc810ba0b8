import ForceLayout
import XCTest
@testable import LayoutCore

/// Links, their digests, and who a room's access lets in as what: no sockets, no files.
final class RoomAccessTests: XCTestCase {
    func testSecretsAre128BitsOfBase64urlWithOneSpelling() throws {
        let secret = LinkSecret.random()
        XCTAssertEqual(secret.bytes.count, 16)
        XCTAssertEqual(secret.text.count, 22)
        XCTAssertEqual(LinkSecret(text: secret.text), secret)
        XCTAssertNotEqual(LinkSecret.random(), secret, "two draws of 128 bits do not meet")
        // RFC 4648's example bytes, in base64url.
        let known = try XCTUnwrap(LinkSecret(text: "-_8AAQIDBAUGBwgJCgsMDQ"))
        XCTAssertEqual(known.bytes, [0xFB, 0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D])
        for bad in ["", String(secret.text.dropLast()), secret.text + "A", "+/8AAQIDBAUGBwgJCgsMDQ", "-_8AAQIDBAUGBwgJCgsMDR",
                    "-_8AAQIDBAUGBwgJCgsMD=", "-_8AAQIDBAUGBwgJCgsMDé"] {
            XCTAssertNil(LinkSecret(text: bad), bad)
        }
        XCTAssertFalse("\(secret)".contains(secret.text), "a secret never describes itself")
        XCTAssertFalse("\(secret.digest)".contains(secret.digest.hex))
    }

    func testDigestsAreSHA256AndCompareWhole() throws {
        // FIPS 180-2's "abc".
        XCTAssertEqual(SecretDigest(of: Array("abc".utf8)).hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let digest = LinkSecret.random().digest
        XCTAssertEqual(SecretDigest(hex: digest.hex), digest)
        XCTAssertNil(SecretDigest(hex: String(digest.hex.dropLast())))
        XCTAssertNil(SecretDigest(hex: digest.hex.uppercased()))
        var flipped = digest.bytes
        flipped[31] ^= 1
        XCTAssertFalse(digest.matches(SecretDigest(hex: SecretDigest(of: []).hex)!))
        XCTAssertNotEqual(digest.bytes, flipped)
    }

    func testEditAndViewLinksAreDerivedPerGeneration() {
        let owner = LinkSecret.random()
        XCTAssertEqual(owner.derived(.edit, generation: 1), owner.derived(.edit, generation: 1))
        let all = [owner, owner.derived(.edit, generation: 1), owner.derived(.edit, generation: 1).derived(.view, generation: 1),
                   owner.derived(.edit, generation: 2), LinkSecret.random().derived(.edit, generation: 1)]
        XCTAssertEqual(Set(all.map(\.text)).count, all.count, "each kind and generation its own secret")
        let digests = LinkDigests(ownerSecret: owner)
        XCTAssertEqual(digests.secrets(from: owner), RoomLinks(owner: owner, edit: owner.derived(.edit, generation: 1),
                                                               view: owner.derived(.edit, generation: 1).derived(.view, generation: 1)))
        // The edit secret spells the view link (editors hand it on), the view secret nothing more.
        let edit = owner.derived(.edit, generation: 1)
        XCTAssertEqual(digests.secrets(from: edit), RoomLinks(owner: nil, edit: edit, view: edit.derived(.view, generation: 1)))
        XCTAssertNil(digests.secrets(from: edit.derived(.view, generation: 1)))
        XCTAssertNil(digests.secrets(from: LinkSecret.random()))
    }

    func testWhoGetsInAndAsWhat() {
        let owner = LinkSecret.random()
        let links = LinkDigests(ownerSecret: owner)
        let edit = Credential.key(owner.derived(.edit, generation: 1)), view = Credential.key(owner.derived(.edit, generation: 1).derived(.view, generation: 1))
        let wrong = Credential.key(LinkSecret.random())
        let expected: [AccessMode: [RoomAccess.Entry]] = [
            // none, owner, edit, view, wrong, invalid, admin
            .open: [.admitted(.editor), .admitted(.owner), .admitted(.editor), .admitted(.editor), .refused(.invalidLink),
                    .refused(.invalidLink), .admitted(.owner)],
            .view: [.admitted(.viewer), .admitted(.owner), .admitted(.editor), .admitted(.viewer), .refused(.invalidLink),
                    .refused(.invalidLink), .admitted(.owner)],
            .private: [.refused(.privateRoom), .admitted(.owner), .admitted(.editor), .admitted(.viewer), .refused(.privateRoom),
                       .refused(.privateRoom), .admitted(.owner)],
        ]
        for mode in AccessMode.allCases {
            let access = RoomAccess(mode: mode, links: links)
            let got = [Credential.none, .key(owner), edit, view, wrong, .invalid, .admin].map(access.admit)
            XCTAssertEqual(got, expected[mode], "\(mode)")
        }
        // A deleted room lets nobody in, the admin and its owner included, and exports nothing.
        let deleted = RoomAccess(mode: .open, links: links, deleted: true)
        for credential in [Credential.none, .key(owner), edit, .admin] {
            XCTAssertEqual(deleted.admit(credential), .refused(.deleted))
            XCTAssertEqual(deleted.exportVerdict(credential), .notFound)
            XCTAssertFalse(deleted.isListed(to: credential))
        }
        // A room from before links: open to all, and no link opens it as anything more.
        XCTAssertEqual(RoomAccess.unowned.admit(.key(owner)), .refused(.invalidLink))
        XCTAssertEqual(RoomAccess.unowned.admit(.none), .admitted(.editor))
    }

    func testRefusedConnectionsAreClosedWithAStatusThatSaysWhy() throws {
        let room = try XCTUnwrap(RoomName("demo"))
        let cases: [(RoomAccess.Refusal, Bool, Bool, UInt32, String)] = [
            (.privateRoom, false, false, 4404, "room demo not found"),
            (.privateRoom, true, false, 4404, "room demo not found"),
            (.invalidLink, true, false, 4403, "this link does not open room demo"),
            (.privateRoom, false, true, 4403, "room demo is private now"),
            (.privateRoom, true, true, 4401, "link rotated"),
            (.invalidLink, true, true, 4401, "link rotated"),
            (.deleted, true, true, 4410, "room demo was deleted by its owner"),
            (.deleted, false, false, 4410, "room demo was deleted by its owner"),
        ]
        for (refusal, key, wasIn, status, reason) in cases {
            let closing = AccessClose.closing(refusal, room: room, broughtKey: key, wasIn: wasIn)
            XCTAssertEqual(closing.status, status, "\(refusal) \(key) \(wasIn)")
            XCTAssertEqual(closing.reason, reason)
        }
    }

    func testExportsAndListingFollowTheAccess() {
        let owner = LinkSecret.random()
        let links = LinkDigests(ownerSecret: owner)
        let view = Credential.key(owner.derived(.edit, generation: 1).derived(.view, generation: 1))
        for (mode, stranger) in [(AccessMode.open, RoomAccess.ExportVerdict.allowed), (.view, .forbidden), (.private, .notFound)] {
            let access = RoomAccess(mode: mode, links: links)
            XCTAssertEqual(access.exportVerdict(.none), stranger, "\(mode)")
            XCTAssertEqual(access.exportVerdict(.key(LinkSecret.random())), stranger, "\(mode)")
            XCTAssertEqual(access.exportVerdict(view), .allowed)
            XCTAssertEqual(access.exportVerdict(.admin), .allowed)
            XCTAssertEqual(access.isListed(to: .none), mode != .private)
            XCTAssertTrue(access.isListed(to: .admin))
        }
    }

    func testRotatingKeepsWhatItDoesNotName() {
        let owner = LinkSecret.random()
        let links = LinkDigests(ownerSecret: owner)
        let edit = LinkDigests.rotating([.edit], of: links, ownerSecret: owner)
        XCTAssertEqual(edit.owner, owner)
        XCTAssertEqual(edit.digests.rotated(since: links), [.edit, .view], "the view link is derived from the edit link")
        let view = LinkDigests.rotating([.view], of: links, ownerSecret: owner)
        XCTAssertEqual(view.digests.rotated(since: links), [.view])
        XCTAssertEqual(view.digests.viewGeneration, 2)
        XCTAssertEqual(edit.digests.editGeneration, 2)
        XCTAssertEqual(edit.digests.secrets(from: owner)?.edit, owner.derived(.edit, generation: 2))
        let both = LinkDigests.rotating([.edit, .view], of: edit.digests, ownerSecret: owner)
        XCTAssertEqual(both.digests.rotated(since: edit.digests), [.edit, .view])
        // The owner's link, or a rotation by the admin (no owner's secret), makes everything new.
        for (kinds, secret) in [(Set([LinkKind.owner]), Optional(owner)), ([.view], nil)] {
            let fresh = LinkDigests.rotating(kinds, of: both.digests, ownerSecret: secret)
            XCTAssertNotEqual(fresh.owner, owner)
            XCTAssertEqual(fresh.digests.rotated(since: both.digests), [.owner, .edit, .view])
            XCTAssertNotNil(fresh.digests.secrets(from: fresh.owner))
        }
        // A room without links gets its first ones.
        XCTAssertEqual(LinkDigests.rotating([.edit], of: nil, ownerSecret: nil).digests.rotated(since: nil), [.owner, .edit, .view])
    }

    func testHandshakesBringKeysInHeadersOnly() {
        let secret = LinkSecret.random()
        let admin = SecretDigest(of: Array("admin-token-0123456789abcdef".utf8))
        let cases: [(String?, String?, Credential)] = [
            (nil, nil, .none),
            ("forcelayout.v2", nil, .none),
            ("forcelayout.v2, forcelayout.key.\(secret.text)", nil, .key(secret)),
            (" forcelayout.key.\(secret.text) ,forcelayout.v1", nil, .key(secret)),
            (nil, "Bearer \(secret.text)", .key(secret)),
            (nil, "bearer  \(secret.text) ", .key(secret)),
            ("forcelayout.v1, forcelayout.key.\(secret.text)", "Bearer \(secret.text)", .key(secret)),
            ("forcelayout.v1, forcelayout.key.\(secret.text)", "Bearer \(LinkSecret.random().text)", .invalid),
            (nil, "Basic dXNlcjpwYXNz", .invalid),
            (nil, "Bearer", .invalid),
            ("forcelayout.key.\(secret.text.dropLast())", nil, .invalid),
            ("forcelayout.key.", nil, .invalid),
            ("forcelayout.key.admin-token-0123456789abcdef", nil, .admin),
            (nil, "Bearer admin-token-0123456789abcdef", .admin),
        ]
        for (offer, authorization, expected) in cases {
            XCTAssertEqual(HandshakeKey.credential(offer: offer, authorization: authorization, admin: admin), expected,
                           "\(offer ?? "-") / \(authorization ?? "-")")
        }
        XCTAssertEqual(HandshakeKey.credential(offer: nil, authorization: "Bearer admin-token-0123456789abcdef", admin: nil), .invalid,
                       "no admin without --admin-token-file")
        // A malformed key is never quoted in the handshake's log line.
        guard case .refused(_, let detail) = SubprotocolOffer(header: "forcelayout.v2, forcelayout.key.abc\"def") else {
            return XCTFail("a key that is no token is a malformed offer")
        }
        XCTAssertFalse(detail.contains("abc"), detail)
        XCTAssertEqual(SubprotocolOffer(header: "forcelayout.v2, forcelayout.key.\(secret.text)"), .chosen(.v2))
    }

    func testAdminTokensComeFromAFileOrTheEnvironment() throws {
        let token = "admin-token-0123456789abcdef"
        let read = { (_: String) throws -> [UInt8] in Array((token + "\n").utf8) }
        XCTAssertEqual(try AdminToken.resolve(file: "f", environment: [:], readFile: read), SecretDigest(of: Array(token.utf8)))
        XCTAssertEqual(try AdminToken.resolve(file: nil, environment: [AdminToken.variable: token], readFile: read),
                       SecretDigest(of: Array(token.utf8)))
        XCTAssertNil(try AdminToken.resolve(file: nil, environment: [:], readFile: read))
        for (file, environment, contents) in [("f", [AdminToken.variable: token], token), ("f", [:], "short"),
                                              ("f", [:], "two words and more than twenty-two"), ("f", [:], token + "\n" + token)] {
            XCTAssertThrowsError(try AdminToken.resolve(file: file, environment: environment) { _ in Array(contents.utf8) }) { error in
                XCTAssertFalse("\(error)".contains(contents), "\(error)")
            }
        }
    }

    func testStateFilesKeepTheAccessAsDigests() throws {
        let simulation = Simulation(seed: 1)
        simulation.add(count: 2, spawn: .random)
        let owner = LinkSecret.random()
        let access = RoomAccess(mode: .private, links: LinkDigests.rotating([.view], of: LinkDigests(ownerSecret: owner), ownerSecret: owner).digests)
        let state = SavedState(layout: simulation.snapshot(), reservation: 3, access: access)
        let bytes = StateFile.bytes(of: state)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#"{"access":{"edit":""#), text)
        XCTAssertTrue(text.contains(#""editGeneration":1,"mode":"private","owner":""#), text)
        XCTAssertTrue(text.contains(#""viewGeneration":2},"format""#), text)
        XCTAssertTrue(text.contains(#""version":\#(StateFile.version)"#))
        for secret in [owner, owner.derived(.edit, generation: 1), owner.derived(.edit, generation: 1).derived(.view, generation: 2)] {
            XCTAssertFalse(text.contains(secret.text))
        }
        XCTAssertEqual(try StateFile.decode(bytes, path: "test"), state)
        // Without access (every file before version 5): an open room with no links.
        let plain = SavedState(layout: simulation.snapshot(), reservation: 3)
        XCTAssertFalse(String(decoding: StateFile.bytes(of: plain), as: UTF8.self).contains("access"))
        XCTAssertEqual(try StateFile.decode(StateFile.bytes(of: plain), path: "test").access, .unowned)
        // A mode of its own, or a digest that is not one, is not a state file.
        for (from, to) in [(#""mode":"private""#, #""mode":"secret""#), (#""owner":""#, #""owner":"x"#),
                           (#""editGeneration":1"#, #""editGeneration":0"#)] {
            let broken = text.replacingOccurrences(of: from, with: to)
            XCTAssertThrowsError(try StateFile.decode(Array(broken.utf8), path: "test"), to)
        }
    }

    func testAccessChangesAreEventsThatMoveNothing() throws {
        let simulation = Simulation(seed: 3)
        simulation.add(count: 3, spawn: .random)
        let owner = LinkSecret.random()
        var state = LayoutState(simulation: simulation, limits: Limits(), settled: true,
                                access: RoomAccess(mode: .open, links: LinkDigests(ownerSecret: owner)))
        _ = state.takeChanges()
        let events = try state.apply(.access(.mode(.view)), from: "c1")
        XCTAssertEqual(events.map(\.kind), [.access], "no woke: nothing moves for it")
        XCTAssertEqual(String(decoding: events[0].encodedTail, as: UTF8.self).contains(#""access":"view"}"#), true)
        XCTAssertEqual(state.access.mode, .view)
        XCTAssertTrue(state.takeChanges().changes.contains(.access))
        XCTAssertEqual(try state.apply(.access(.mode(.view)), from: "c1"), [], "no change, no event")
        let rotation = LinkDigests.rotating([.edit], of: state.access.links, ownerSecret: owner)
        let rotated = try state.apply(.access(.links(rotation.digests)), from: "c1")
        let tail = String(decoding: rotated[0].encodedTail, as: UTF8.self)
        XCTAssertTrue(tail.hasSuffix(#""access":"view","rotated":["edit","view"]}"#), tail)
        XCTAssertFalse(tail.contains(rotation.digests.edit.hex), "no digest in an event")
        XCTAssertTrue(state.settled)
        XCTAssertEqual(state.saved(reservation: 4, settled: true).access, state.access)
        // Deleting takes every cell and shuts the room; nothing applies to it after that.
        let ids = state.simulation.ids
        let deleted = try state.apply(.access(.delete), from: "c1")
        XCTAssertEqual(deleted.map(\.kind), [.deleted])
        XCTAssertEqual(deleted[0].detail, .cells(ids))
        XCTAssertEqual(state.simulation.count, 0)
        XCTAssertTrue(state.access.deleted)
        XCTAssertThrowsError(try state.apply(.add(count: 1, spawn: .center), from: "c2")) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .forbidden)
        }
        let saved = state.saved(reservation: 4, settled: true)
        XCTAssertTrue(String(decoding: StateFile.bytes(of: saved), as: UTF8.self).contains(#""deleted":true"#))
        XCTAssertEqual(try StateFile.decode(StateFile.bytes(of: saved), path: "test").access, state.access)
    }

    func testMessagesForTheOwnerAndTheLeastRoleOfEachKind() {
        let decoder = MessageDecoder(limits: Limits())
        func decoded(_ text: String) -> Result<ClientMessage, ProtocolError> {
            decoder.decode(Array(text.utf8)).map(\.message)
        }
        XCTAssertEqual(try decoded(#"{"type":"access","access":"private"}"#).get(), .setAccess(.private))
        XCTAssertEqual(try decoded(#"{"type":"rotate"}"#).get(), .rotate([.edit, .view]))
        XCTAssertEqual(try decoded(#"{"type":"delete"}"#).get(), .deleteRoom)
        XCTAssertEqual(try decoded(#"{"type":"rotate","links":["owner","view","view"]}"#).get(), .rotate([.owner, .view]))
        for bad in [#"{"type":"access"}"#, #"{"type":"access","access":"Private"}"#, #"{"type":"access","access":"view","x":1}"#,
                    #"{"type":"rotate","links":[]}"#, #"{"type":"rotate","links":"edit"}"#, #"{"type":"rotate","links":["read"]}"#] {
            guard case .failure(let error) = decoded(bad) else { return XCTFail("\(bad) accepted") }
            XCTAssertEqual(error.code, .badRequest, bad)
        }
        let roles: [(String, Role)] = [(#"{"type":"clear"}"#, .editor), (#"{"type":"replay","count":1}"#, .viewer),
                                       (#"{"type":"subscribe","kinds":[]}"#, .viewer), (#"{"type":"rotate"}"#, .owner),
                                       (#"{"type":"delete"}"#, .owner)]
        for (text, role) in roles {
            XCTAssertEqual(try decoded(text).get().requiredRole, role, text)
        }
        // Written back as a client writes them, they decode the same.
        for message in [ClientMessage.setAccess(.view), .rotate([.edit]), .deleteRoom] {
            XCTAssertEqual(try decoder.decode(ClientRequest(message).encoded).get().message, message)
        }
    }
}
