// Swift fixture: built with -O -g and with -Onone -g.

protocol Shape {
    var name: String { get }
    func area() -> Double
}

struct Circle: Shape {
    var radius: Double
    var name: String { "circle" }
    func area() -> Double { Double.pi * radius * radius }
}

struct Rectangle: Shape {
    var width: Double
    var height: Double
    var name: String { "rectangle" }
    func area() -> Double { width * height }
}

final class Canvas {
    private(set) var shapes: [any Shape] = []

    func add(_ shape: any Shape) {
        shapes.append(shape)
    }

    @inline(never)
    func totalArea() -> Double {
        shapes.reduce(0) { $0 + $1.area() }
    }

    @inline(never)
    func largest() -> (any Shape)? {
        shapes.max { $0.area() < $1.area() }
    }

    func names() -> [String] {
        shapes.map { $0.name }.sorted()
    }
}

@inline(never)
func scaled(_ values: [Double], by factor: Double) -> [Double] {
    values.map { value in
        precondition(value >= 0, "negative value")
        return value * factor
    }
}

let canvas = Canvas()
let count = CommandLine.arguments.count
for index in 0..<count + 3 {
    if index % 2 == 0 {
        canvas.add(Circle(radius: Double(index)))
    } else {
        canvas.add(Rectangle(width: Double(index), height: 2))
    }
}
let areas = scaled(canvas.shapes.map { $0.area() }, by: 1.5)
print(canvas.totalArea(), canvas.largest()?.name ?? "none", canvas.names(), areas.count)
