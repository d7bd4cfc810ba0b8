/// Who may come into a room and as what: its access mode and the digests of its links. Part of
/// the room's state (`LayoutState.access`): saved in its state file (and in a cluster, in
/// Redis) with the layout, changed only by its owner's `access` and `rotate` messages.
public struct RoomAccess: Equatable, Sendable {
    public var mode: AccessMode
    /// The room's links; nil for a room from before links (a state file of version 4 or
    /// earlier): it has no owner until the server's admin rotates its links.
    package var links: LinkDigests?
    /// Its owner deleted it: nobody is let in, and it leaves memory once its last connection
    /// has gone (the next handshake makes a new room of that name).
    package var deleted: Bool

    package init(mode: AccessMode, links: LinkDigests? = nil, deleted: Bool = false) {
        self.mode = mode
        self.links = links
        self.deleted = deleted
    }

    /// A room from before access existed: open to all, with no links.
    public static let unowned = RoomAccess(mode: .open)

    /// Whether a connection that came with `credential` gets in, and as what.
    package func admit(_ credential: Credential) -> Entry {
        if deleted { return .refused(.deleted) }
        switch credential {
        case .none:
            switch mode {
            case .open: return .admitted(.editor)
            case .view: return .admitted(.viewer)
            case .private: return .refused(.privateRoom)
            }
        case .admin:
            return .admitted(.owner)
        case .invalid:
            return .refused(mode == .private ? .privateRoom : .invalidLink)
        case .key(let secret):
            guard let kind = links?.kind(of: secret.digest) else {
                return .refused(mode == .private ? .privateRoom : .invalidLink)
            }
            return .admitted(kind.role(in: mode))
        }
    }

    package enum Entry: Equatable, Sendable {
        case admitted(Role)
        case refused(Refusal)
    }

    package enum Refusal: Equatable, Sendable {
        /// A private room, and no link that opens it (none, or a wrong one): as if it did not exist.
        case privateRoom
        /// A link that opens none of the room's doors (mistyped, cut short, or rotated since).
        case invalidLink
        /// The room was deleted by its owner.
        case deleted
    }
}

/// The digests of a room's three links, and the generations its edit and view links were
/// derived for (`LinkSecret.derived`).
public struct LinkDigests: Equatable, Sendable {
    package var owner: SecretDigest
    package var edit: SecretDigest
    package var view: SecretDigest
    package var editGeneration: Int
    package var viewGeneration: Int

    package init(owner: SecretDigest, edit: SecretDigest, view: SecretDigest, editGeneration: Int, viewGeneration: Int) {
        self.owner = owner
        self.edit = edit
        self.view = view
        self.editGeneration = editGeneration
        self.viewGeneration = viewGeneration
    }

    /// The digests of the links an owner's secret makes at these generations.
    package init(ownerSecret: LinkSecret, editGeneration: Int = 1, viewGeneration: Int = 1) {
        let edit = ownerSecret.derived(.edit, generation: editGeneration)
        self.init(owner: ownerSecret.digest, edit: edit.digest, view: edit.derived(.view, generation: viewGeneration).digest,
                  editGeneration: editGeneration, viewGeneration: viewGeneration)
    }

    /// Which link `digest` is, comparing with all three in constant time (every comparison is
    /// made, whichever matches).
    package func kind(of digest: SecretDigest) -> LinkKind? {
        let owner = owner.matches(digest), edit = edit.matches(digest), view = view.matches(digest)
        return owner ? .owner : edit ? .edit : view ? .view : nil
    }

    /// The room's current links that `secret` spells out: all three for its owner's secret, the
    /// edit and view links for its edit secret, nil for anything else (a view secret gives no
    /// more than itself).
    package func secrets(from secret: LinkSecret) -> RoomLinks? {
        let digest = secret.digest
        if owner.matches(digest) {
            let edit = secret.derived(.edit, generation: editGeneration)
            return RoomLinks(owner: secret, edit: edit, view: edit.derived(.view, generation: viewGeneration))
        }
        guard edit.matches(digest) else { return nil }
        return RoomLinks(owner: nil, edit: secret, view: secret.derived(.view, generation: viewGeneration))
    }

    /// The links after rotating `kinds`, asked by the holder of `ownerSecret` (nil: the server's
    /// admin, who has none). Rotating the owner's link (or an admin rotating anything) makes a
    /// new owner's secret, returned with the digests, and with it new edit and view links.
    package static func rotating(_ kinds: Set<LinkKind>, of current: LinkDigests?,
                                 ownerSecret: LinkSecret?) -> (digests: LinkDigests, owner: LinkSecret) {
        let editGeneration = (current?.editGeneration ?? 0) + 1
        let viewGeneration = (current?.viewGeneration ?? 0) + 1
        guard let current, let ownerSecret, !kinds.contains(.owner), current.owner.matches(ownerSecret.digest) else {
            let fresh = LinkSecret.random()
            return (LinkDigests(ownerSecret: fresh, editGeneration: editGeneration, viewGeneration: viewGeneration), fresh)
        }
        return (LinkDigests(ownerSecret: ownerSecret,
                            editGeneration: kinds.contains(.edit) ? editGeneration : current.editGeneration,
                            viewGeneration: kinds.contains(.view) ? viewGeneration : current.viewGeneration), ownerSecret)
    }

    /// Which links differ from `other`'s (rotated), in the order owner, edit, view.
    package func rotated(since other: LinkDigests?) -> [LinkKind] {
        guard let other else { return LinkKind.allCases }
        return LinkKind.allCases.filter { kind in
            switch kind {
            case .owner: !owner.matches(other.owner)
            case .edit: !edit.matches(other.edit)
            case .view: !view.matches(other.view)
            }
        }
    }
}

/// A room's links spelled out: all three for its owner, the edit and view links for an editor
/// who came with the edit link (`hello.links`, `role`); never to anyone else.
package struct RoomLinks: Equatable, Sendable {
    package let owner: LinkSecret?
    package let edit: LinkSecret
    package let view: LinkSecret
}

/// An owner's change to a room's access (`LayoutCommand.access`): its mode, or its links
/// (the digests a rotation made, `LinkDigests.rotating`).
public enum AccessChange: Equatable, Sendable {
    case mode(AccessMode)
    case links(LinkDigests)
    /// The owner deletes the room: its cells go (kept aside as a `clear` keeps them), and
    /// everyone in it is closed.
    case delete
}

/// What a connection brought to its handshake: no link, one of a room's links, or the
/// server's admin token (`--admin-token-file`), which is every room's owner.
package enum Credential: Equatable, Sendable {
    case none
    case key(LinkSecret)
    case admin
    /// Something that is no secret's spelling (cut short, mistyped): refused like a wrong one.
    case invalid

    /// The link's secret it holds, if it brought one (what it opens is the room's to say).
    package var secret: LinkSecret? {
        if case .key(let secret) = self { return secret }
        return nil
    }
}
