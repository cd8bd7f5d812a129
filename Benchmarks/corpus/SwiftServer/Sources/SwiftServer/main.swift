import Fluent
import FluentSQLiteDriver
import Leaf
import Vapor

// A server as people write them — routes, a database, templates; the benchmark only reads its debug information.
final class Reading: Model, Content, @unchecked Sendable {
    static let schema = "readings"
    @ID(key: .id) var id: UUID?
    @Field(key: "sensor") var sensor: String
    @Field(key: "value") var value: Double

    init() {}
    init(sensor: String, value: Double) {
        self.sensor = sensor
        self.value = value
    }
}

struct CreateReadings: AsyncMigration {
    func prepare(on database: Database) async throws {
        try await database.schema("readings").id().field("sensor", .string, .required).field("value", .double, .required).create()
    }

    func revert(on database: Database) async throws { try await database.schema("readings").delete() }
}

let app = try await Application.make(.detect())
app.databases.use(.sqlite(.memory), as: .sqlite)
app.migrations.add(CreateReadings())
app.views.use(.leaf)
app.get("health") { _ in "ok" }
app.post("readings") { request async throws -> Reading in
    let reading = try request.content.decode(Reading.self)
    try await reading.save(on: request.db)
    return reading
}
app.get("readings") { request async throws -> [Reading] in try await Reading.query(on: request.db).all() }
try await app.autoMigrate()
try await app.execute()
try await app.asyncShutdown()
