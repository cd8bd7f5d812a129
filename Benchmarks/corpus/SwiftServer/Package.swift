// swift-tools-version:6.0
// The large Swift program of the resolve benchmark: a small Vapor server (Fluent on SQLite, Leaf) built in debug mode,
// so that the frameworks and their dependencies (SwiftNIO, swift-crypto, async-http-client, SQLite, …) give it the tens of MB of DWARF
// a real server has. Built by Benchmarks/resolve.sh; never part of the product.
import PackageDescription

let package = Package(
    name: "SwiftServer",
    dependencies: [
        .package(url: "https://github.com/vapor/vapor", exact: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent", exact: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver", exact: "4.9.0"),
        .package(url: "https://github.com/vapor/leaf", exact: "4.5.2"),
    ],
    targets: [
        .executableTarget(name: "SwiftServer", dependencies: [
            .product(name: "Vapor", package: "vapor"),
            .product(name: "Fluent", package: "fluent"),
            .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
            .product(name: "Leaf", package: "leaf"),
        ])
    ]
)
