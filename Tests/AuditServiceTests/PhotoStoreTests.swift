import AuditLog
import Foundation
import Inspection
import Testing

@testable import AuditService

@Suite("Photo store")
struct PhotoStoreTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("synthetic test image".utf8) + [0xFF, 0xD9]

    /// A distinct small JPEG per index.
    static func image(_ index: Int, size: Int = 0) -> [UInt8] {
        jpeg + Array("image \(index)".utf8) + [UInt8](repeating: UInt8(index % 251), count: size)
    }

    /// What a crash can leave at `offset`: a group for `photo` whose commit reached the disk but
    /// whose bytes did not (zeros in their place).
    static func tornGroup(_ photo: [UInt8], at offset: Int) -> [UInt8] {
        var group = ByteWriter()
        PhotoPackFormat.appendPhotoHeader(PhotoKey(hex: PhotoStore.sha256(photo))!, count: photo.count, to: &group)
        let crc = CRC32C.checksum(group.bytes + photo)
        group.bytes += [UInt8](repeating: 0, count: photo.count)
        PhotoPackFormat.appendCommit(groupStart: UInt64(offset), groupCRC: crc, to: &group)
        return group.bytes
    }

    /// Stores `photos` one after the other in a store on `blobs`, then closes it.
    static func storeAndClose(_ photos: [[UInt8]], in blobs: URL) throws {
        let store = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        for photo in photos { _ = try store.store(photo, contentType: "image/jpeg") }
        store.close()
    }

    static func packFiles(_ blobs: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: blobs.path + "/packs")) ?? [])
            .filter { $0.hasSuffix(".pack") }.sorted()
    }

    @Test("uploads before or after PhotoAttached; missing ones are pending")
    func outOfOrderUploads() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        let store = service.photos
        let hash = PhotoStore.sha256(Self.jpeg)
        #expect(store.status(sha256: hash) == .pending)
        let receipt = try await store.store(Self.jpeg, contentType: "image/jpeg", sha256: hash)
        #expect(receipt.isNew)
        #expect(store.status(sha256: hash) == .stored)
        #expect(store.read(sha256: hash) == Self.jpeg)
        #expect(try store.store(Self.jpeg, contentType: "image/jpeg", durable: true).isNew == false)
        try await service.close()
    }

    @Test("photos go into one pack, named by their SHA-256; a reader opened before finds what was stored after")
    func packs() async throws {
        #expect(
            PhotoStore.sha256(Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let fixture = try ServiceFixture()
        let blobs = DataDirectory(fixture.directory).blobs
        let hashes = (0..<40).map { PhotoStore.sha256(Self.image($0)) }
        do {
            let store = try PhotoStore(directory: blobs, policy: PhotoPolicy())
            // Stored together: they share groups, and every one is acknowledged.
            let receipts = try await withThrowingTaskGroup(of: PhotoStore.Receipt.self) { group in
                for index in 0..<40 {
                    group.addTask { try await store.store(Self.image(index), contentType: "image/jpeg") }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(receipts.map(\.sha256)) == Set(hashes) && receipts.allSatisfy(\.isNew))
            store.close()
        }
        #expect(Self.packFiles(blobs) == ["00000001.pack"])
        let folders = try FileManager.default.contentsOfDirectory(atPath: blobs.path)
        #expect(folders.sorted() == ["packs"])
        // A fresh view of the directory (as another process has) reads the packs.
        let reader = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        for (index, hash) in hashes.enumerated() { #expect(reader.read(sha256: hash) == Self.image(index)) }
        #expect(!reader.contains(sha256: PhotoStore.sha256(Self.image(99))))
        reader.close()
    }

    @Test("a group torn by a crash is cut when the pack is opened; every acknowledged photo stays")
    func tornGroup() throws {
        let fixture = try ServiceFixture()
        let blobs = DataDirectory(fixture.directory).blobs
        try Self.storeAndClose((0..<3).map { Self.image($0) }, in: blobs)
        let pack = blobs.path + "/packs/00000001.pack"
        let clean = try #require(FileManager.default.contents(atPath: pack))
        // What a crash can leave: a group whose commit made it to disk but not all of its bytes.
        let photo = Self.image(7)
        let torn = Self.tornGroup(photo, at: clean.count) + [1, 2, 3]  // and the start of the next
        try (clean + Data(torn)).write(to: URL(fileURLWithPath: pack))

        let reopened = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        // A reader trusts the commit; the writer checks the group, cuts it and takes the photo again.
        #expect(try reopened.store(photo, contentType: "image/jpeg").isNew)
        for index in [0, 1, 2, 7] {
            #expect(reopened.read(sha256: PhotoStore.sha256(Self.image(index))) == Self.image(index))
        }
        reopened.close()
        let repaired = try #require(FileManager.default.contents(atPath: pack))
        #expect(repaired.prefix(clean.count) == clean)
        #expect(repaired.count == clean.count + 37 + photo.count + 17 + 13)
    }

    @Test("a reader that trusted a torn group reads the pack anew once a writer has cut it and written on")
    func readerAfterRepair() throws {
        let fixture = try ServiceFixture()
        let blobs = DataDirectory(fixture.directory).blobs
        try Self.storeAndClose([Self.image(0)], in: blobs)
        // A crash leaves a group whose commit is on disk but whose bytes are not.
        let pack = blobs.path + "/packs/00000001.pack"
        let clean = try #require(FileManager.default.contents(atPath: pack))
        let lost = Self.image(1)
        let torn = Self.tornGroup(lost, at: clean.count)
        try (clean + Data(torn)).write(to: URL(fileURLWithPath: pack))
        // Another process's view, which trusts the commit.
        let reader = PhotoIndex(root: blobs.path)
        let lostKey = PhotoKey(hex: PhotoStore.sha256(lost))!
        #expect(reader.contains(lostKey, hex: PhotoStore.sha256(lost)))
        #expect(reader.read(lostKey, hex: PhotoStore.sha256(lost)) == nil)  // the bytes do not hash
        // The writer cuts the torn group and writes a photo of the same size where it was.
        let next = Self.image(2)
        let writer = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        #expect(try writer.store(next, contentType: "image/jpeg").isNew)
        writer.close()
        let nextHash = PhotoStore.sha256(next)
        #expect(reader.read(PhotoKey(hex: nextHash)!, hex: nextHash) == next)
        #expect(!reader.contains(lostKey, hex: PhotoStore.sha256(lost)))
        let firstHash = PhotoStore.sha256(Self.image(0))
        #expect(reader.read(PhotoKey(hex: firstHash)!, hex: firstHash) == Self.image(0))
    }

    @Test("a pack full up to its limit is followed by the next one")
    func nextPack() throws {
        let fixture = try ServiceFixture()
        let blobs = DataDirectory(fixture.directory).blobs
        let store = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        store.packs?.packLimit = 3_000
        let images = (0..<5).map { Self.image($0, size: 1_000) }
        for image in images { #expect(try store.store(image, contentType: "image/jpeg").isNew) }
        store.close()
        #expect(Self.packFiles(blobs).count >= 2)
        let reader = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        for image in images { #expect(reader.read(sha256: PhotoStore.sha256(image)) == image) }
    }

    @Test("a photo stored as a file by an earlier version is found, and not stored again")
    func earlierFiles() throws {
        let fixture = try ServiceFixture()
        let blobs = DataDirectory(fixture.directory).blobs
        let hash = PhotoStore.sha256(Self.jpeg)
        let folder = blobs.appendingPathComponent(String(hash.prefix(2)))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.jpeg).write(to: folder.appendingPathComponent(hash))
        let store = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        #expect(store.contains(sha256: hash))
        #expect(store.read(sha256: hash) == Self.jpeg)
        #expect(try store.store(Self.jpeg, contentType: "image/jpeg").isNew == false)
        store.close()
    }

    @Test("bytes damaged in a pack read as not stored, never as the photo")
    func damagedBytes() throws {
        let fixture = try ServiceFixture()
        let blobs = DataDirectory(fixture.directory).blobs
        let hash = PhotoStore.sha256(Self.jpeg)
        try Self.storeAndClose([Self.jpeg], in: blobs)
        let pack = URL(fileURLWithPath: blobs.path + "/packs/00000001.pack")
        var bytes = try [UInt8](Data(contentsOf: pack))
        bytes[8 + 37 + 5] ^= 0xFF
        try Data(bytes).write(to: pack)
        let reader = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        #expect(reader.read(sha256: hash) == nil)
    }

    @Test("size, type and hash limits give clear errors")
    func limits() throws {
        let fixture = try ServiceFixture()
        let store = try PhotoStore(
            directory: DataDirectory(fixture.directory).blobs, policy: PhotoPolicy(maxBytes: 16))
        #expect(throws: AuditServiceError.self) { try store.store(Self.jpeg, contentType: "image/jpeg") }
        let big = try PhotoStore(directory: fixture.directory.appendingPathComponent("b2"), policy: PhotoPolicy())
        let wrongType = #expect(throws: AuditServiceError.self) { try big.store(Self.jpeg, contentType: "image/png") }
        #expect(wrongType?.message.contains("not image/png") == true)
        #expect(throws: AuditServiceError.self) { try big.store([1, 2, 3], contentType: "image/jpeg") }
        let badHash = #expect(throws: AuditServiceError.self) {
            try big.store(Self.jpeg, contentType: "image/jpeg", sha256: String(repeating: "0", count: 64))
        }
        #expect(badHash?.message.contains("damaged") == true)
        big.close()
    }

    @Test("a group waits for more stores while they keep coming, but not for a lone caller's")
    func gatherOnlyWhileStoresKeepComing() {
        let recent = PhotoPackWriter.busySpan / 5
        let lone = PhotoPackWriter.loneGroups
        #expect(PhotoPackWriter.gathers(singleStoreGroupsInARow: 0, sinceLastWrite: recent))
        // One group of one among many uploads is chance: still gathering.
        #expect(PhotoPackWriter.gathers(singleStoreGroupsInARow: 1, sinceLastWrite: .zero))
        #expect(PhotoPackWriter.gathers(singleStoreGroupsInARow: lone - 1, sinceLastWrite: recent))
        // A lone caller awaits each store before the next: waiting cannot add to its group.
        #expect(!PhotoPackWriter.gathers(singleStoreGroupsInARow: lone, sinceLastWrite: recent))
        #expect(!PhotoPackWriter.gathers(singleStoreGroupsInARow: 1_000, sinceLastWrite: .zero))
        // Stores stopped coming.
        #expect(!PhotoPackWriter.gathers(singleStoreGroupsInARow: 0, sinceLastWrite: PhotoPackWriter.busySpan * 2))
    }
}
