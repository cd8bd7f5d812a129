// swift-tools-version:6.0
// The Swift program of the resolve benchmark: swift-nio and swift-syntax built in debug mode give it
// tens of MB of DWARF from many modules. Built by Benchmarks/resolve.sh; never part of the product.
import PackageDescription

let package = Package(
    name: "SwiftCorpus",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "SwiftCorpus",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        )
    ]
)
