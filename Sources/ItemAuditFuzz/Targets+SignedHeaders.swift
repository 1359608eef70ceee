import SignedRequestHeaders

extension FuzzTarget {
    /// The signature headers' checks: the input is up to six lines, the app id, transaction id,
    /// timestamp and signature headers (a missing line is a missing header), then the server clock
    /// and the window in seconds. What is accepted must be what the checks promise.
    static let signedHeaders = FuzzTarget(
        name: "signed-headers",
        seeds: [
            "app-1\n3f0c2a9e-5b1d-4c8e-9f3a-2d7b6e1c0a94\n1772438400\n7a828e1fa29d2338ff2aa4d74136e9421ab12dfacac5a735a2492bb91c324004\n1772438500\n300",
            "app-1\ntx-1\n-9223372036854775808\n7A828E1FA29D2338FF2AA4D74136E9421AB12DFACAC5A735A2492BB91C324004\n1772438400\n300",
            "app-1\ntx-1\n9223372036854775807\n7a828e1fa29d2338ff2aa4d74136e9421ab12dfacac5a735a2492bb91c324004\n-9223372036854775808\n9223372036854775807",
            "app-1, app-2\ntx 1\n+1772438400\n7a82\n0\n-1", "\n\n\n",
        ].map { [UInt8]($0) },
        dictionary: [
            "\n", ", ", " ", "-", "+", "0", "9", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
            "1772438400", "300", "ff", "G", ":", "é",
        ].map { [UInt8]($0) },
        run: { input in
            let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            func line(_ index: Int) -> String? { index < lines.count ? lines[index] : nil }
            let now = line(4).flatMap { Int64($0) } ?? 1_772_438_400
            let window = line(5).flatMap { Int64($0) } ?? 300
            guard
                let headers = try? SignedHeaders.check(
                    appID: line(0), transactionID: line(1), timestamp: line(2), signature: line(3), nowSeconds: now,
                    windowSeconds: window)
            else { return }
            precondition((1...SignedHeaders.appIDLimit).contains(headers.appID.utf8.count), "app id length")
            precondition(
                (1...SignedHeaders.transactionIDLimit).contains(headers.transactionID.utf8.count),
                "transaction id length")
            precondition(Int64(headers.timestampText) == headers.timestamp, "timestamp parsed as written")
            let (difference, overflow) = now.subtractingReportingOverflow(headers.timestamp)
            precondition(!overflow && difference.magnitude <= UInt64(max(0, window)), "timestamp inside the window")
            precondition(headers.signature.utf8.count == SignedHeaders.signatureLength, "signature length")
        })
}
