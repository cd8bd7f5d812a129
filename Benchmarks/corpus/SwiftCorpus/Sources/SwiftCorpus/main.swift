import NIOCore
import NIOPosix
import SwiftParser
import SwiftSyntax

// Parses a little Swift and moves its tokens through a NIO ByteBuffer, so both libraries are linked in.
let source = "struct Point { var x: Int; var y: Int }\nfunc area(_ p: Point) -> Int { p.x * p.y }\n"
let tree = Parser.parse(source: source)
var buffer = ByteBufferAllocator().buffer(capacity: 256)
for token in tree.tokens(viewMode: .sourceAccurate) { buffer.writeString(token.text + " ") }
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let length = try group.next().submit { buffer.readableBytes }.wait()
try group.syncShutdownGracefully()
print("\(tree.statements.count) statements, \(length) bytes of tokens")
